// Uploads to S3-compatible storage (AWS S3, Cloud Storage's XML API with HMAC keys, any S3-compatible
// endpoint) through the official SDK, whose connections go through the SSRF guard: its HTTP agents resolve
// names with the guarded lookup, and a literal address is checked before the client is made.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { guardedLookup, type OutboundPolicy } from '../../platform/outbound.ts';
import { type BucketSettings, GCS_ENDPOINT } from './destinations.ts';
import { DeliveryError, describeNetworkFailure } from './failures.ts';

const CONNECT_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const WHOLE_UPLOAD_MS = 45_000;

// Codes S3 answers with that say what to fix; anything else is shown as the bare code.
const HINTS: Record<string, string> = {
  SignatureDoesNotMatch: 'check the secret access key',
  InvalidAccessKeyId: 'check the access key id',
  AccessDenied: 'the key may not write to this bucket',
  NoSuchBucket: 'the bucket does not exist',
  PermanentRedirect: 'the bucket is in another region: check config.region',
  AuthorizationHeaderMalformed: 'check config.region',
  InvalidBucketName: 'check the bucket name',
};

interface Upload {
  settings: BucketSettings;
  gcp: boolean;
  secretAccessKey: string;
  key: string;
  body: Buffer;
  contentType: string;
}

/** The service's base URL: the configured endpoint, Cloud Storage's for gcp, or null for AWS's own. */
function endpointFor(settings: BucketSettings, gcp: boolean): string | null {
  return settings.endpoint ?? (gcp ? GCS_ENDPOINT : null);
}

/** Puts one object; throws a DeliveryError whose message is safe to show (no provider text, no secret). */
export async function putObject(upload: Upload, policy: OutboundPolicy): Promise<void> {
  const endpoint = endpointFor(upload.settings, upload.gcp);
  if (endpoint !== null) {
    const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
    const why = net.isIP(host) ? policy.refusal(host) : null;
    if (why)
      throw new DeliveryError(`The storage endpoint ${host} is not an allowed destination: ${why}.`, false);
  }
  const lookup = guardedLookup(policy);
  const httpAgent = new http.Agent({ lookup, keepAlive: false });
  const httpsAgent = new https.Agent({ lookup, keepAlive: false });
  const client = new S3Client({
    region: upload.settings.region,
    ...(endpoint === null ? {} : { endpoint, forcePathStyle: true }),
    credentials: { accessKeyId: upload.settings.access_key_id, secretAccessKey: upload.secretAccessKey },
    requestHandler: new NodeHttpHandler({
      httpAgent,
      httpsAgent,
      connectionTimeout: CONNECT_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      throwOnRequestTimeout: true,
    }),
    // Retries are the job queue's (with its backoff and history rows), not the SDK's.
    maxAttempts: 1,
    // No flexible-checksum headers: Cloud Storage and several S3-compatible services refuse them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    await client.send(
      new PutObjectCommand({
        Bucket: upload.settings.bucket,
        Key: upload.key,
        Body: upload.body,
        ContentType: upload.contentType,
      }),
      { abortSignal: AbortSignal.timeout(WHOLE_UPLOAD_MS) },
    );
  } catch (error) {
    throw storageFailure(error);
  } finally {
    client.destroy();
    httpAgent.destroy();
    httpsAgent.destroy();
  }
}

/** A readable reason for a failed upload, and whether trying again later may help. */
function storageFailure(error: unknown): DeliveryError {
  const e = error as {
    name?: string;
    $metadata?: { httpStatusCode?: number };
    $response?: { statusCode?: number };
  };
  const status = e.$metadata?.httpStatusCode ?? e.$response?.statusCode;
  if (typeof status === 'number' && status >= 300) {
    const code = typeof e.name === 'string' && /^[A-Za-z]{1,64}$/.test(e.name) ? e.name : null;
    const known = code !== null && code !== 'Unknown' && code !== 'UnknownError' ? code : null;
    const hint = known && HINTS[known] ? `: ${HINTS[known]}` : '';
    const what = known ? `${known} (HTTP ${status})` : `HTTP ${status}`;
    const retryable = status >= 500 || status === 429 || status === 408 || known === 'SlowDown';
    return new DeliveryError(`The storage service refused the upload with ${what}${hint}.`, retryable);
  }
  return describeNetworkFailure(error, 'the storage endpoint');
}
