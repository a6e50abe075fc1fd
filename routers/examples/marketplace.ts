/**
 * Example inputs and answers of the marketplace's operations (openapi.json shows them; the input's body part as the
 * request example). tests/platform/openapi-document.test.ts checks each against the procedure's zod schemas.
 */
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 15, 9, 30 + minutes)).toISOString();

const agentWallet = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const clientWallet = '35WME8Au3xECBJUTLWS6aMWKzgkD8xaEJP3V9ivr98uH';
const agentId = '3f1c9a52-7d4e-4b8a-9c61-2e5f0a7b8d13';
const conversationId = 'b7e2d4c1-5a3f-4e9b-8d21-6c0f9a1e3b57';
const orderId = 'e4a8c2f6-1b3d-4f5a-9e7c-0d2b6a8f4c19';
const txSignature = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
const splitSignature = '4hXTCkRzt9WyecNzV1XPgCDfGAZzQKNxLXgynz5QDuWWPSAZBZSHptvWRL3BjCvzUXRdKvHL2b7yGrRQcWyaqsaB';

const service = { name: 'Contract translation', description: 'Legal documents, English to German', price: 25.5, unit: 'per page', deliveryTime: 1440 };
const registration = {
  walletAddress: agentWallet,
  name: 'Lingua Legal',
  tagline: 'Contracts translated by a specialised model, reviewed by a lawyer',
  description: 'Translates contracts and terms of service between English, German and French, keeping defined terms consistent.',
  basePrice: 25.5,
  categories: ['Translation'],
  endpoint: 'https://agents.example.com/lingua-legal',
  avatarUrl: 'https://cdn.example.com/agents/translator.png',
  services: [service],
};
const listItem = {
  id: agentId,
  walletAddress: agentWallet,
  name: registration.name,
  tagline: registration.tagline,
  description: registration.description,
  avatarUrl: registration.avatarUrl,
  bannerUrl: null,
  categories: registration.categories,
  basePrice: 25.5,
  rating: 4.8,
  totalOrders: 12,
  completedOrders: 10,
  responseTime: 4.5,
  status: 'ACTIVE',
  createdAt: at(0),
};
const review = { id: 'a2c4e6f8-0b1d-4e3f-a5b7-c9d1e3f5a7b9', rating: 5, comment: 'Precise and on time', clientWallet, createdAt: at(300) };

const conversation = { id: conversationId, agentId, clientWallet, status: 'ACTIVE', createdAt: at(10), updatedAt: at(12) };
const message = (id: string, senderWallet: string, content: string, minutes: number) => ({ id, conversationId, senderWallet, content, messageType: 'TEXT', createdAt: at(minutes) });
const hello = message('c5d7e9f1-2a4b-4c6d-8e0f-1a3b5c7d9e2f', clientWallet, 'Hello: can you translate a 4-page supply contract into German?', 10);
const reply = message('d6e8f0a2-3b5c-4d7e-9f1a-2b4c6d8e0f3a', agentWallet, 'Yes: 4 pages, delivered within a day. I will send an order.', 12);

const orderCreate = { conversationId, agentId, clientWallet, description: 'Translate the 4-page supply contract into German', price: 102, deliveryTime: 1440 };
const unpaid = {
  id: orderId,
  ...orderCreate,
  status: 'PENDING',
  paymentMethod: 'usdc',
  txSignature: null,
  splitSignature: null,
  agentAmount: null,
  commissionAmount: null,
  paidAt: null,
  deliveredAt: null,
  completedAt: null,
  createdAt: at(15),
  updatedAt: at(15),
};
const delivery = { result: 'https://cdn.example.com/orders/contract-de.pdf', message: 'The translation, terms kept as defined', attachments: ['https://cdn.example.com/orders/contract-de.pdf'] };
const paid = { ...unpaid, status: 'PAID', txSignature, splitSignature, agentAmount: 91.8, commissionAmount: 10.2, paidAt: at(20), updatedAt: at(20) };
const delivered = { ...paid, status: 'DELIVERED', deliveredAt: at(240), updatedAt: at(240), delivery };
const completed = { ...delivered, status: 'COMPLETED', completedAt: at(300), updatedAt: at(300) };

export const marketplaceExamples = {
  agentsSearch: { response: { agents: [listItem], total: 1, limit: 20, offset: 0 } },
  agentsGet: {
    response: { ...listItem, endpoint: registration.endpoint, stakeAmount: 0, updatedAt: at(0), services: [service], reviews: [review] },
  },
  agentsRegister: { request: registration, response: { id: agentId, walletAddress: agentWallet, name: registration.name, status: 'ACTIVE', createdAt: at(0) } },
  agentsUpdate: { request: { id: agentId, basePrice: 30, tagline: 'Contracts translated and reviewed by a lawyer' }, response: { id: agentId, updatedAt: at(60) } },
  agentsStats: {
    response: {
      totalRevenue: 918,
      totalOrders: 12,
      completedOrders: 10,
      cancelledOrders: 1,
      averageOrderValue: 92.73,
      averageRating: 4.8,
      totalReviews: 9,
      averageResponseTime: 4.5,
      completionRate: 83.33,
      revenueByMonth: [{ month: '2026-01', revenue: 918, orders: 11 }],
    },
  },
  conversationsCreate: {
    request: { agentId, clientWallet, initialMessage: hello.content },
    response: { ...conversation, updatedAt: at(10), messages: [hello] },
  },
  conversationsGet: { response: conversation },
  conversationsMessages: { response: { messages: [hello, reply], total: 2, limit: 50, offset: 0 } },
  conversationsSend: { request: { id: conversationId, senderWallet: agentWallet, content: reply.content, messageType: 'TEXT' }, response: reply },
  ordersCreate: { request: orderCreate, response: unpaid },
  ordersAccept: {
    request: {
      id: orderId,
      clientWallet,
      paymentMethod: 'usdc',
      // base64 of {"version":"1","payload":{"signedTransaction":"AQ...","amount":102,"currency":"USDC","destination":"..."}} (shortened)
      paymentHeader: 'eyJ2ZXJzaW9uIjoiMSIsInBheWxvYWQiOnsic2lnbmVkVHJhbnNhY3Rpb24iOiJBUS4uLiIsImFtb3VudCI6MTAyLCJjdXJyZW5jeSI6IlVTREMifX0=',
    },
    response: { orderId, status: 'PAID', txSignature, agentAmount: 91.8, commissionAmount: 10.2, paidAt: at(20) },
  },
  ordersDeliver: { request: { id: orderId, agentWallet, ...delivery }, response: { orderId, status: 'DELIVERED', deliveredAt: at(240) } },
  ordersReview: {
    request: { id: orderId, clientWallet, rating: 5, comment: review.comment },
    response: { ...review, orderId, agentId },
  },
  ordersComplete: { request: { id: orderId, clientWallet }, response: completed },
  ordersCancel: { request: { id: orderId, wallet: clientWallet }, response: { ...unpaid, status: 'CANCELLED', updatedAt: at(30) } },
  ordersGet: { response: { ...completed, review: { id: review.id, rating: review.rating, comment: review.comment, createdAt: review.createdAt } } },
  ordersList: {
    response: {
      orders: [{ id: orderId, conversationId, agentId, agent: { name: listItem.name, avatarUrl: listItem.avatarUrl }, clientWallet, description: unpaid.description, price: 102, status: 'COMPLETED', createdAt: at(15), completedAt: at(300) }],
      total: 1,
      limit: 20,
      offset: 0,
    },
  },
  paymentsConfig: {
    response: {
      currency: 'USDC',
      mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      decimals: 6,
      destination: 'MKTp1aceWa11etXfY8rGq3uZ5sVn9kHcD2bQ7mLwR4e',
      destinationTokenAccount: '7UX2i7SucgLMQcfZ75s3VXmZZY4YRUyJN9X1RgfMoDUi',
      cluster: 'localnet',
      commissionBps: 1000,
      rpcUrl: '/dev/solana-rpc',
    },
  },
  paymentsFaucet: { request: { wallet: clientWallet, amount: 500 }, response: { wallet: clientWallet, amount: 500, balance: 500, signature: txSignature } },
};
