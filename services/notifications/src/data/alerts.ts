import type { ClientSession, Connection } from 'mongoose';

interface RecipientDocument {
  _id: string;
  email: string;
  name: string;
  updatedAt: Date;
}

interface AlertSettingsDocument {
  _id: string;
  repricingAlerts: boolean;
  updatedAt: Date;
}

interface RepricingAlertDocument {
  /** `<userId>@<panelVersion>`: at most one alert per user per panel change. */
  _id: string;
  userId: string;
  panelVersion: string;
  /** What the one alert of that change was sent for: a saved search whose best offer got better... */
  searchId?: string;
  /** ...or the user's DIPs whose product the change withdrew or repriced (dip.product.changed). */
  dipIds?: string[];
  at: Date;
}

/** An alert to claim: for a saved search that improved, or for DIPs whose product changed. */
export type AlertClaim = { userId: string; panelVersion: string } & (
  { searchId: string } | { dipIds: string[] }
);

/**
 * What re-pricing alerts need: whom to write to (a projection of identity's registrations), each
 * user's choice (alerts are on until turned off), and the alerts already sent.
 */
export class AlertStore {
  constructor(private readonly connection: Connection) {}

  private recipients() {
    return this.connection.collection<RecipientDocument>('alert_recipients');
  }

  private settings() {
    return this.connection.collection<AlertSettingsDocument>('alert_settings');
  }

  private sent() {
    return this.connection.collection<RepricingAlertDocument>('repricing_alerts');
  }

  async saveRecipient(userId: string, email: string, name: string): Promise<void> {
    await this.recipients().updateOne(
      { _id: userId },
      { $set: { email, name, updatedAt: new Date() } },
      { upsert: true },
    );
  }

  async recipient(userId: string): Promise<{ email: string; name: string } | null> {
    return this.recipients().findOne({ _id: userId }, { projection: { _id: 0, email: 1, name: 1 } });
  }

  async repricingAlertsOn(userId: string): Promise<boolean> {
    const doc = await this.settings().findOne({ _id: userId });
    return doc?.repricingAlerts ?? true;
  }

  async setRepricingAlerts(userId: string, on: boolean): Promise<void> {
    await this.settings().updateOne(
      { _id: userId },
      { $set: { repricingAlerts: on, updatedAt: new Date() } },
      { upsert: true },
    );
  }

  /**
   * Records the alert of a user for a panel change; false when one was already recorded (another of
   * their searches got better in the same change, or the change reached one of their DIPs), so no
   * second email is sent.
   */
  async claimAlert(alert: AlertClaim, session?: ClientSession): Promise<boolean> {
    const _id = `${alert.userId}@${alert.panelVersion}`;
    // Looked up first: inside a transaction a duplicate-key error would abort the whole transaction.
    // Two claims racing meet as a write conflict, and the retried one finds the other's.
    if (await this.sent().findOne({ _id }, { session })) return false;
    await this.sent().insertOne({ _id, ...alert, at: new Date() }, { session });
    return true;
  }
}
