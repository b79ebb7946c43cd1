import { formatCurrency } from '@lsp/contracts';
import { Button, Dialog, useToast } from '@lsp/ui';
import { useNavigate } from 'react-router-dom';
import { callbackMessage } from '../shared/advisor-contact';
import type { LoanType } from '../shared/loan-type';
import type { LoanOffer } from '../shared/loan-offer';
import { storePendingApplication } from '../application/pending-application';
import { useSavedSearchId } from '../shared/saved-search-context';
import { browserStorage } from '../shared/storage-keys';
import { LoanFlowChart } from './loan-flow-chart';
import {
  arrangementFee,
  isStrongProfit,
  lenderTitle,
  money,
  percent1,
  ratePm,
  roce,
  tmc,
} from './offer-format';

interface BreakdownModalProps {
  offer: LoanOffer | null;
  loanType: LoanType;
  formData: Record<string, unknown>;
  onClose: () => void;
}

function Row({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className="sr-breakdown__row">
      <dt>{label}</dt>
      <dd className={className}>{value}</dd>
    </div>
  );
}

/** The complete breakdown of one offer, with the raw lender response behind a disclosure. */
export function BreakdownModal({ offer, loanType, formData, onClose }: BreakdownModalProps) {
  const navigate = useNavigate();
  const { toast } = useToast();
  const searchId = useSavedSearchId();
  if (!offer) return null;
  const commercial = loanType === 'commercial';
  const returnOnCapital = roce(offer);

  const continueApplication = () => {
    storePendingApplication(
      browserStorage(),
      { formData, selectedLoan: offer.raw, loanType, searchId },
      Date.now(),
    );
    onClose();
    navigate('/application');
  };

  return (
    <Dialog
      open
      onClose={onClose}
      dismissLabel="Close"
      title={lenderTitle(offer)}
      description="Complete loan breakdown and terms"
      size="lg"
      footer={
        <>
          <Button
            variant="ghost"
            onClick={() =>
              toast({
                title: 'Request Callback',
                description: callbackMessage(lenderTitle(offer)),
                variant: 'info',
              })
            }
          >
            Request Callback
          </Button>
          <Button variant="brand" onClick={continueApplication}>
            Continue Application
          </Button>
        </>
      }
    >
      <div className="sr-tiles">
        <div className="sr-tile">
          <p className="sr-tile__label">Gross loan</p>
          <p className="sr-tile__value">{money(offer.grossLoan)}</p>
        </div>
        <div className="sr-tile">
          <p className="sr-tile__label">Net loan</p>
          <p className="sr-tile__value">{money(offer.netLoan)}</p>
        </div>
        <div className="sr-tile">
          <p className="sr-tile__label">Interest rate</p>
          <p className="sr-tile__value">{ratePm(offer)}</p>
        </div>
        <div className="sr-tile">
          <p className="sr-tile__label">True monthly cost</p>
          <p className="sr-tile__value">{tmc(offer)}</p>
        </div>
      </div>

      <LoanFlowChart offer={offer} />

      <section aria-labelledby="breakdown-loan" className="sr-breakdown__section">
        <h3 id="breakdown-loan" className="sr-section-title">
          Loan Details
        </h3>
        <dl className="sr-breakdown__list">
          <Row label="Gross loan" value={money(offer.grossLoan)} />
          <Row label="Net loan" value={money(offer.netLoan)} />
          <Row label="Arrangement fee" value={arrangementFee(offer)} />
          {offer.arrangementFeePercent !== null && (
            <Row label="Arrangement fee (% of value)" value={percent1(offer.arrangementFeePercent)} />
          )}
          <Row label="Exit fee" value={formatCurrency(offer.exitFee)} />
          {offer.otherLenderCosts !== null && (
            <Row label="Other lender costs" value={money(offer.otherLenderCosts)} />
          )}
          {offer.loanInterest !== null && <Row label="Loan interest" value={money(offer.loanInterest)} />}
          {offer.totalLenderCosts !== null && (
            <Row label="Total lender costs" value={money(offer.totalLenderCosts)} />
          )}
          {offer.loanToValue !== null && <Row label="Loan to value" value={percent1(offer.loanToValue)} />}
          {offer.loanToValueNet !== null && (
            <Row label="Loan to value (net)" value={percent1(offer.loanToValueNet)} />
          )}
          {offer.landLoan !== null && <Row label="Land loan" value={money(offer.landLoan)} />}
          {offer.buildLoan !== null && <Row label="Build loan" value={money(offer.buildLoan)} />}
          {offer.purchasePrice !== null && <Row label="Purchase price" value={money(offer.purchasePrice)} />}
          {offer.propertyValue !== null && <Row label="Property value" value={money(offer.propertyValue)} />}
          {offer.buildCost !== null && <Row label="Build cost" value={money(offer.buildCost)} />}
          {offer.totalBuildCost !== null && (
            <Row label="Total build cost" value={money(offer.totalBuildCost)} />
          )}
          {offer.mortgageTerm !== null && <Row label="Mortgage term" value={`${offer.mortgageTerm} years`} />}
        </dl>
      </section>

      <section aria-labelledby="breakdown-returns" className="sr-breakdown__section">
        <h3 id="breakdown-returns" className="sr-section-title">
          Returns &amp; Performance
        </h3>
        <dl className="sr-breakdown__list">
          <Row label="Deposit required" value={money(offer.deposit)} />
          {commercial ? (
            <>
              <Row label="Monthly payment" value={money(offer.monthlyPayment)} />
              <Row label="Lifetime cost (20 years)" value={money(offer.lifetimeCost)} />
            </>
          ) : (
            <Row
              label="Profit forecast"
              value={money(offer.profit)}
              className={isStrongProfit(offer) ? 'sr-positive' : undefined}
            />
          )}
          {!commercial && returnOnCapital !== null && <Row label="ROCE" value={returnOnCapital} />}
        </dl>
      </section>

      <details className="sr-raw">
        <summary>Raw API Response</summary>
        <pre tabIndex={0}>{JSON.stringify(offer.raw, null, 2)}</pre>
      </details>
    </Dialog>
  );
}
