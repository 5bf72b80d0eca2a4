/**
 * `AuthorizationArgs`, the argument of `Client.authorize`, complete as the spec's record says:
 * each field with a getter named as the field and a `set<Field>` setter; copy and move
 * construction and assignment (moves never throw and leave the source invalid); a "holds a
 * valid object" test; and the static uninitialized instance `nullobj`.
 */
import { SdkError } from './errors';
import { S256_CHALLENGE, type AuthorizationCodeChallenge } from './code-verifier';

/**
 * The installation context an app is authorized as. The spec leaves the values open; these are
 * the platform's installation contexts, as `/oauth2/authorize`'s `integration_type` takes them.
 */
export const IntegrationType = {
  GuildInstall: 0,
  UserInstall: 1,
} as const;

/** One of {@link IntegrationType}. */
export type IntegrationType = (typeof IntegrationType)[keyof typeof IntegrationType];

/** The redirect URI's path after the scheme (spec: `<scheme>:/authorize/callback`). */
const REDIRECT_PATH = ':/authorize/callback';
/** RFC 3986 §3.1: a scheme is a letter followed by letters, digits, `+`, `-` and `.`. */
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
/** A snowflake: an unsigned 64-bit integer in decimal. */
const UINT64 = /^\d{1,20}$/;
const UINT64_MAX = (1n << 64n) - 1n;

/**
 * The redirect URI of an authorization: `<scheme>:/authorize/callback` for a custom scheme,
 * else `platform-<application_id>:/authorize/callback`.
 * @example authorizeRedirectUri('1234') // 'platform-1234:/authorize/callback'
 * @example authorizeRedirectUri('1234', 'mygame') // 'mygame:/authorize/callback'
 */
export function authorizeRedirectUri(applicationId: string, customScheme?: string): string {
  return `${customScheme ?? `platform-${applicationId}`}${REDIRECT_PATH}`;
}

/** The application id as the SDK keeps it: a decimal string of an unsigned 64-bit integer. */
export function toApplicationId(value: string | bigint, what = 'ClientId'): string {
  const text = typeof value === 'bigint' ? value.toString() : value;
  if (typeof text !== 'string' || !UINT64.test(text) || BigInt(text) > UINT64_MAX || BigInt(text) === 0n) {
    throw SdkError.validation(`${what} must be a non-zero unsigned 64-bit integer (an application id).`);
  }
  return text;
}

interface Fields {
  clientId?: string;
  scopes: string;
  state?: string;
  nonce?: string;
  codeChallenge?: AuthorizationCodeChallenge;
  integrationType?: IntegrationType;
  customSchemeParam?: string;
}

const optionalString = (value: unknown, field: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw SdkError.validation(`${field} must be a string, or undefined to unset it.`);
  return value;
};

/**
 * The arguments of an authorization.
 * @example
 * const args = new AuthorizationArgs();
 * args.setScopes(Client.getDefaultCommunicationScopes());
 * args.setCodeChallenge((await client.createAuthorizationCodeVerifier()).challenge);
 * const { code, redirectUri } = await client.authorize(args);
 */
export class AuthorizationArgs {
  /** The uninitialized instance: `isValid()` is false and every getter and setter throws. */
  static readonly nullobj: AuthorizationArgs = AuthorizationArgs.#invalid();

  #fields: Fields | null;

  /** A new record (Scopes empty, everything else unset), or a copy of `other`. */
  constructor(other?: AuthorizationArgs) {
    this.#fields = other === undefined ? { scopes: '' } : other.#copy();
  }

  static #invalid(): AuthorizationArgs {
    const args = new AuthorizationArgs();
    args.#fields = null;
    return args;
  }

  /**
   * Move construction: a new record with `other`'s fields; `other` becomes invalid. Never
   * throws (moving an invalid record gives an invalid one; `nullobj` stays as it is).
   */
  static move(other: AuthorizationArgs): AuthorizationArgs {
    const moved = AuthorizationArgs.#invalid();
    moved.#fields = other.#fields;
    if (other !== AuthorizationArgs.nullobj) other.#fields = null;
    return moved;
  }

  /** Copy construction, as a method. */
  clone(): AuthorizationArgs {
    return new AuthorizationArgs(this);
  }

  /**
   * Copy assignment: this record takes a copy of `other`'s fields. As in C++, assigning to a
   * moved-from record makes it valid again; only `nullobj` refuses assignment.
   */
  assign(other: AuthorizationArgs): this {
    if (this === AuthorizationArgs.nullobj) throw AuthorizationArgs.#invalidUse(this);
    if (other !== this) this.#fields = other.#copy();
    return this;
  }

  /** Move assignment: this record takes `other`'s fields and `other` becomes invalid. Never throws. */
  moveAssign(other: AuthorizationArgs): this {
    if (this === AuthorizationArgs.nullobj || other === this) return this;
    this.#fields = other.#fields;
    if (other !== AuthorizationArgs.nullobj) other.#fields = null;
    return this;
  }

  /** True when this instance holds a valid object (false for `nullobj` and moved-from records). */
  isValid(): boolean {
    return this.#fields !== null;
  }

  /** The boolean conversion: `args.valueOf()` is `isValid()`. */
  valueOf(): boolean {
    return this.isValid();
  }

  /** Application id of the game; unset means the id given to `Client.setApplicationId`. */
  clientId(): string | undefined {
    return this.#read().clientId;
  }

  /** Sets ClientId (a uint64 as a decimal string or bigint); undefined unsets it. */
  setClientId(value: string | bigint | undefined): void {
    this.#writable().clientId = value === undefined ? undefined : toApplicationId(value);
  }

  /** Space-separated OAuth2 scopes; required (`Client.getDefaultCommunicationScopes()` fits most games). */
  scopes(): string {
    return this.#read().scopes;
  }

  /** Sets Scopes, e.g. `Client.getDefaultCommunicationScopes()`. */
  setScopes(value: string): void {
    if (typeof value !== 'string')
      throw SdkError.validation('Scopes must be a space-separated string of OAuth2 scopes.');
    this.#writable().scopes = value;
  }

  /** OAuth2 state; unset (recommended) means `authorize` generates a secure random one. */
  state(): string | undefined {
    return this.#read().state;
  }

  /** Sets State; leave it unset to have a secure random one generated. */
  setState(value: string | undefined): void {
    this.#writable().state = optionalString(value, 'State');
  }

  /** OpenID Connect nonce, for backend integrations that use ID tokens. */
  nonce(): string | undefined {
    return this.#read().nonce;
  }

  /** Sets the OpenID Connect nonce; undefined unsets it. */
  setNonce(value: string | undefined): void {
    this.#writable().nonce = optionalString(value, 'Nonce');
  }

  /** The PKCE challenge from `createAuthorizationCodeVerifier()`; needed for `getToken`. */
  codeChallenge(): AuthorizationCodeChallenge | undefined {
    return this.#read().codeChallenge;
  }

  /** Sets CodeChallenge to the `challenge` of `createAuthorizationCodeVerifier()`; undefined unsets it. */
  setCodeChallenge(value: AuthorizationCodeChallenge | undefined): void {
    if (
      value !== undefined &&
      (value?.method !== 'S256' || typeof value.challenge !== 'string' || !S256_CHALLENGE.test(value.challenge))
    ) {
      throw SdkError.validation(
        'CodeChallenge must be the challenge of createAuthorizationCodeVerifier(): {challenge: 43 base64url characters, method: "S256"}.',
      );
    }
    this.#writable().codeChallenge =
      value === undefined ? undefined : Object.freeze({ challenge: value.challenge, method: value.method });
  }

  /** The installation context the app is authorized as. */
  integrationType(): IntegrationType | undefined {
    return this.#read().integrationType;
  }

  /** Sets IntegrationType; undefined unsets it (the platform then installs to the user). */
  setIntegrationType(value: IntegrationType | undefined): void {
    if (value !== undefined && value !== IntegrationType.GuildInstall && value !== IntegrationType.UserInstall) {
      throw SdkError.validation(
        'IntegrationType must be IntegrationType.GuildInstall (0) or IntegrationType.UserInstall (1).',
      );
    }
    this.#writable().integrationType = value;
  }

  /** Custom URI scheme of the redirect (`<scheme>:/authorize/callback`); unset means `platform-<application_id>`. */
  customSchemeParam(): string | undefined {
    return this.#read().customSchemeParam;
  }

  /** Sets the redirect's custom URI scheme; undefined unsets it. */
  setCustomSchemeParam(value: string | undefined): void {
    const scheme = optionalString(value, 'CustomSchemeParam');
    if (scheme !== undefined && !URI_SCHEME.test(scheme)) {
      throw SdkError.validation(
        'CustomSchemeParam must be a URI scheme: a letter, then letters, digits, "+", "-" or "." (no ":").',
      );
    }
    this.#writable().customSchemeParam = scheme;
  }

  #copy(): Fields | null {
    return this.#fields === null ? null : { ...this.#fields };
  }

  #read(): Fields {
    if (this.#fields === null) throw AuthorizationArgs.#invalidUse(this);
    return this.#fields;
  }

  #writable(): Fields {
    if (this === AuthorizationArgs.nullobj) throw AuthorizationArgs.#invalidUse(this);
    return this.#read();
  }

  static #invalidUse(args: AuthorizationArgs): SdkError {
    return SdkError.validation(
      args === AuthorizationArgs.nullobj
        ? 'AuthorizationArgs.nullobj holds no object and cannot be read or changed: use new AuthorizationArgs().'
        : 'This AuthorizationArgs was moved from and holds no object any more: use the instance it was moved to.',
    );
  }
}
