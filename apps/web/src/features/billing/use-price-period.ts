import { type BillingPeriod, defaultPricePeriod, type PricePeriod } from '@parla/contracts';
import { useState } from 'react';
import { readStorage, storageKeys, writeStorage } from '../../lib/storage-keys';

function readStoredPeriod(): PricePeriod | null {
  const stored = readStorage(storageKeys.billingPeriod);
  return stored === 'monthly' || stored === 'yearly' ? stored : null;
}

/**
 * The period the plan cards show: the visitor's last choice (accounts §9, kept in local storage), else
 * the workspace's own period (accounts §4 "Billing period default").
 */
export function usePricePeriod(
  workspacePeriod: BillingPeriod | null | undefined,
): [PricePeriod, (period: PricePeriod) => void] {
  const [chosen, setChosen] = useState(readStoredPeriod);
  const choose = (period: PricePeriod) => {
    setChosen(period);
    writeStorage(storageKeys.billingPeriod, period);
  };
  return [chosen ?? defaultPricePeriod(workspacePeriod), choose];
}
