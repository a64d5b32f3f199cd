// The Google auth the local servers take: a fixed bearer token that never needs refreshing, so the Compute
// Engine clients talk to the emulator without any credential or metadata-server lookup.
import { OAuth2Client } from 'google-auth-library';

export function localGoogleAuth(): OAuth2Client {
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: 'local-fake-token', expiry_date: Date.now() + 3_600_000 });
  return auth;
}
