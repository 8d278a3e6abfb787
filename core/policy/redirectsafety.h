#pragma once

#include <QByteArray>
#include <QString>

namespace crawl {

// Request headers that carry credentials: dropped on a redirect to another origin (as curl and browsers
// do) unless FetchPolicy::sendCredentialsCrossOrigin. Authorization, Proxy-Authorization and Cookie, and
// any user header whose name says it holds a secret (X-Api-Key, X-Auth-Token, X-Session-Id, ...).
bool isCredentialHeader(const QByteArray &name);

// A host that is this machine or a private network: loopback, RFC 1918, carrier-grade NAT, link-local,
// IPv6 unique-local, "localhost" and *.localhost. Only the name or literal is judged (nothing is
// resolved): a public name that resolves to a private address is not detected.
bool isPrivateHost(const QString &host);

} // namespace crawl
