export * from './app';
export * from './config';
export { Accounts, MESSAGES } from './data/accounts';
export { userModel, type User } from './data/users';
