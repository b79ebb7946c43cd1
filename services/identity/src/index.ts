export * from './app';
export * from './config';
export { Accounts, MESSAGES, type EventOutbox } from './accounts';
export { userModel, type User } from './users';
