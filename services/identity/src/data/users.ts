import { CONTACT_PREFERENCES, PROPERTIES_OWNED, SIGNUP_SOURCES } from '@lsp/contracts';
import { type Connection, type HydratedDocument, type Model, Schema } from 'mongoose';

/**
 * The spec's `users` model. Lead fields start empty and are filled by the results gate; the
 * verification token is kept only as a hash with its expiry.
 */
export interface User {
  email: string;
  name: string;
  phone?: string;
  passwordHash: string;
  propertiesOwned?: string;
  contactPreference?: string;
  consent?: boolean;
  hasViewedProperty?: boolean;
  ownsProperty?: boolean;
  agreedPurchasePrice?: boolean;
  emailVerified: boolean;
  verifiedAt?: Date;
  /** sha-256 of the outstanding verification token; null once used or replaced. */
  verificationToken?: string | null;
  verificationSentAt?: Date;
  verificationExpiresAt?: Date;
  /** sha-256 of the token that verified the address, to tell "already used" from "unknown". */
  usedVerificationToken?: string | null;
  /** sha-256 of the outstanding password-reset token; null once used or replaced. */
  passwordResetToken?: string | null;
  passwordResetExpiresAt?: Date | null;
  /** When the password last changed (reset or change); sessions older than that were ended. */
  passwordChangedAt?: Date;
  source: (typeof SIGNUP_SOURCES)[number];
  refDealId?: string;
  fromSharedLink?: boolean;
  /** The search that led to create-account, kept as sent. */
  signupSearchData?: unknown;
  /** The anonymous search run the account was created with: handed to search on verification. */
  signupSearchRunId?: string;
  /** The search the results gate was answered for. */
  leadSearchData?: unknown;
  leadCapturedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export type UserDocument = HydratedDocument<User>;
export type UserModel = Model<User>;

const userSchema = new Schema<User>(
  {
    // Stored lower-cased and trimmed, so the unique index makes emails case-insensitive.
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    name: { type: String, required: true, trim: true },
    phone: { type: String, trim: true },
    passwordHash: { type: String, required: true },
    propertiesOwned: { type: String, enum: PROPERTIES_OWNED },
    contactPreference: { type: String, enum: CONTACT_PREFERENCES },
    consent: Boolean,
    hasViewedProperty: Boolean,
    ownsProperty: Boolean,
    agreedPurchasePrice: Boolean,
    emailVerified: { type: Boolean, required: true, default: false },
    verifiedAt: Date,
    verificationToken: { type: String, default: null },
    verificationSentAt: Date,
    verificationExpiresAt: Date,
    usedVerificationToken: { type: String, default: null },
    passwordResetToken: { type: String, default: null },
    passwordResetExpiresAt: { type: Date, default: null },
    passwordChangedAt: Date,
    source: { type: String, enum: SIGNUP_SOURCES, required: true },
    refDealId: String,
    fromSharedLink: Boolean,
    signupSearchData: Schema.Types.Mixed,
    signupSearchRunId: String,
    leadSearchData: Schema.Types.Mixed,
    leadCapturedAt: Date,
  },
  { collection: 'users', timestamps: true, minimize: false },
);
userSchema.index({ verificationToken: 1 }, { sparse: true });
userSchema.index({ usedVerificationToken: 1 }, { sparse: true });
userSchema.index({ passwordResetToken: 1 }, { sparse: true });

export function userModel(connection: Connection): UserModel {
  return (connection.models.User as UserModel | undefined) ?? connection.model<User>('User', userSchema);
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The user as the browser sees it: never the hash, never a token. */
export function publicUser(user: UserDocument) {
  return { id: user.id as string, name: user.name, email: user.email, verified: user.emailVerified };
}
