/**
 * Built-in MDX components: authors use them in pages without imports. The renderer passes this object to
 * `<Content components={mdxComponents} />`. Author documentation: README.md in this folder.
 */
import Accordion from './Accordion.astro';
import AccordionGroup from './AccordionGroup.astro';
import Callout from './Callout.astro';
import Card from './Card.astro';
import CardGroup from './CardGroup.astro';
import CodeGroup from './CodeGroup.astro';
import Danger from './Danger.astro';
import Info from './Info.astro';
import Note from './Note.astro';
import Step from './Step.astro';
import Steps from './Steps.astro';
import Tab from './Tab.astro';
import Tabs from './Tabs.astro';
import Tip from './Tip.astro';
import Warning from './Warning.astro';

export const mdxComponents = {
  Note,
  Tip,
  Info,
  Warning,
  Danger,
  Callout,
  Tabs,
  Tab,
  Steps,
  Step,
  Card,
  CardGroup,
  Accordion,
  AccordionGroup,
  CodeGroup,
};

export type MdxComponentName = keyof typeof mdxComponents;
