import { z } from 'zod';

/** `scripts`: analytics and verification, injected into published pages only (never local preview). */
export const scriptsSchema = z
  .strictObject({
    vendorTagManager: z.string().optional().describe('Tag-manager container ID; when set, vendorAnalytics is not injected.'),
    vendorAnalytics: z.string().optional().describe('Analytics measurement ID, used only without vendorTagManager.'),
    vendorSiteVerification: z.string().optional().describe('google-site-verification content value; default branch only.'),
    altAnalytics: z.union([z.string(), z.boolean()]).optional().describe('true: hosted script; a URL: self-hosted. Custom domains and vanity subdomains only.'),
  })
  .default({});
