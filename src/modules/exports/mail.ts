// Sends an export as an e-mail attachment over SMTP (nodemailer). The user-given host goes through the SSRF
// guard: it is resolved here with the guarded lookup (every address checked) and nodemailer connects to the
// checked address, presenting and verifying the host's name for TLS, so it never resolves the name itself.
import net from 'node:net';
import nodemailer from 'nodemailer';
import { guardedLookup, type OutboundPolicy } from '../../platform/outbound.ts';
import type { EmailSettings } from './destinations.ts';
import { DeliveryError, describeNetworkFailure } from './failures.ts';

const WHOLE_DELIVERY_MS = 45_000;

interface Mail {
  settings: EmailSettings;
  password: string | null;
  subject: string;
  text: string;
  attachment: { filename: string; content: Buffer; contentType: string };
}

/** The address to connect to: the literal itself, or what the name resolves to (all of it allowed). */
async function checkedAddress(host: string, policy: OutboundPolicy): Promise<string> {
  if (net.isIP(host)) {
    const why = policy.refusal(host);
    if (why) throw new DeliveryError(`The SMTP host ${host} is not an allowed destination: ${why}.`, false);
    return host;
  }
  const lookup = guardedLookup(policy);
  try {
    return await new Promise<string>((resolve, reject) =>
      lookup(host, { all: false }, (error, address) => (error ? reject(error) : resolve(address as string))),
    );
  } catch (error) {
    throw describeNetworkFailure(error, 'the SMTP server');
  }
}

/** Sends one message; throws a DeliveryError whose message is safe to show (no server text, no secret). */
export async function sendMail(mail: Mail, policy: OutboundPolicy): Promise<void> {
  const { settings } = mail;
  const address = await checkedAddress(settings.host, policy);
  const servername = net.isIP(settings.host) ? undefined : settings.host;
  const transport = nodemailer.createTransport({
    host: address,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    ...(servername ? { servername, tls: { servername } } : {}),
    auth:
      settings.username !== null && mail.password !== null
        ? { user: settings.username, pass: mail.password }
        : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    logger: false,
    debug: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  let timer: NodeJS.Timeout | undefined;
  // However slowly a server trickles its answers, the whole delivery ends well within the job's lease.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeliveryError('No answer from the SMTP server in time.', true)),
      WHOLE_DELIVERY_MS,
    );
  });
  try {
    await Promise.race([
      transport.sendMail({
        from: settings.from,
        to: settings.to,
        subject: mail.subject,
        text: mail.text,
        attachments: [mail.attachment],
      }),
      deadline,
    ]);
  } catch (error) {
    throw error instanceof DeliveryError ? error : mailFailure(error);
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}

/** A readable reason from nodemailer's error code and the SMTP reply code (never the server's text). */
function mailFailure(error: unknown): DeliveryError {
  const e = error as { code?: unknown; responseCode?: unknown };
  const reply = typeof e.responseCode === 'number' ? e.responseCode : null;
  const suffix = reply !== null ? ` (SMTP ${reply})` : '';
  const transient = reply !== null && reply >= 400 && reply < 500;
  switch (e.code) {
    case 'EAUTH':
      return new DeliveryError(`The SMTP server refused the user name or password${suffix}.`, transient);
    case 'ENOAUTH':
      return new DeliveryError(
        'The SMTP server requires a login: set config.username and config.password.',
        false,
      );
    case 'EENVELOPE':
      return new DeliveryError(`The SMTP server refused the sender or a recipient${suffix}.`, transient);
    case 'EMESSAGE':
      return new DeliveryError(`The SMTP server refused the message${suffix}.`, reply === null || transient);
    case 'ETLS':
      return new DeliveryError('The TLS handshake with the SMTP server failed.', false);
    case 'ETIMEDOUT':
      return new DeliveryError('No answer from the SMTP server in time.', true);
    case 'EPROTOCOL':
      return new DeliveryError(`The SMTP server answered unexpectedly${suffix}.`, true);
  }
  if (reply !== null) {
    return new DeliveryError(`The SMTP server refused the delivery${suffix}.`, transient);
  }
  return describeNetworkFailure(error, 'the SMTP server');
}
