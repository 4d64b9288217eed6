/** The words people read for each verification method and removal reason (pages, the about page, the home page). */
import type { RemovalReason, VerificationMethod } from './schema.ts';

/** Short, beside a review's source: "Verified: matched to a job". */
export const METHOD_LABEL: Record<VerificationMethod, string> = {
  platform: 'imported from the platform',
  job: 'matched to a job',
  invitation: 'invited after a job',
};

/** How each method shows that a customer wrote the review. */
export const METHOD_EXPLANATION: Record<VerificationMethod, string> = {
  platform:
    'Imported from the review platform (Google, for instance) with the platform’s own id for the review, so anyone can find the original there. The platform, not us, holds the customer’s account.',
  job: 'Sent to us directly (by the website, email or phone) or copied from a platform by hand: the office matched the customer to a job we completed before publishing the review. The job reference stays in our records and is never published.',
  invitation:
    'The customer answered the invitation we send after a completed job: only customers we worked for receive one.',
};

export const REASON_LABEL: Record<RemovalReason, string> = {
  'not-a-customer': 'not written by a customer',
  'personal-data': 'contained personal data',
  offensive: 'offensive or hateful',
  spam: 'spam or advertising',
  duplicate: 'a duplicate of another review',
  'legal-order': 'removed by a legal order',
  'customer-request': 'the customer asked for its removal',
};
