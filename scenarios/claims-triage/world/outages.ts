import type { ClaimsTools } from './claims-world.js';

/**
 * The day the policy service was down (its database failed over and did not
 * come back until the next morning): every `fetch_policy` call timed out.
 * A timeout is the backend not answering, not an answer the model could read,
 * so a run that reaches the policy that day stops there with `TOOL_FAILED`,
 * and `forkpoint resume` can continue it once the service is back.
 */
export const POLICY_OUTAGE_DAY = '2026-03-12';

/**
 * The document the OCR service crashed on, and the day: CLM-91180's holder
 * re-uploaded the assessor form from a phone and the upload was cut short; the
 * service answered HTTP 500 on the truncated file until the office replaced it
 * the next morning. A server error is the backend failing, not an answer: the
 * run stops at that `ocr_document` call with `TOOL_FAILED`.
 */
export const TRUNCATED_UPLOAD = { documentId: 'DOC-91801', day: '2026-03-06' } as const;

/**
 * The recorded world's tools with its outages: on {@link POLICY_OUTAGE_DAY}
 * `fetch_policy` fails as a socket that timed out does (`ETIMEDOUT`), and on
 * the day of {@link TRUNCATED_UPLOAD} the OCR service fails with a 500 on that
 * document. The synthetic cases' worlds have no outages.
 */
export function withOutages(tools: ClaimsTools, at: string): ClaimsTools {
  const { fetch_policy: fetchPolicy, ocr_document: ocrDocument } = tools;
  return {
    ...tools,
    fetch_policy: (input) =>
      at === POLICY_OUTAGE_DAY
        ? Promise.reject(
            Object.assign(new Error('the policy service did not answer within 30 s'), { code: 'ETIMEDOUT' }),
          )
        : fetchPolicy(input),
    ocr_document: (input) =>
      at === TRUNCATED_UPLOAD.day && input.document_id === TRUNCATED_UPLOAD.documentId
        ? Promise.reject(
            Object.assign(new Error(`500 Internal Server Error: cannot decode ${TRUNCATED_UPLOAD.documentId}`), {
              status: 500,
            }),
          )
        : ocrDocument(input),
  };
}
