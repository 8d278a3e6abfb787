#include "policy/redirectsafety.h"

#include <QHostAddress>

namespace crawl {

bool isCredentialHeader(const QByteArray &name) {
    const QByteArray lower = name.trimmed().toLower();
    if (lower == "authorization" || lower == "proxy-authorization" || lower == "cookie")
        return true;
    for (const char *secret :
         {"auth", "token", "api-key", "apikey", "secret", "session", "cookie", "password"}) {
        if (lower.contains(secret))
            return true;
    }
    return false;
}

bool isPrivateHost(const QString &host) {
    QString name = host.toLower();
    if (name.startsWith(QLatin1Char('[')) && name.endsWith(QLatin1Char(']')))
        name = name.mid(1, name.size() - 2);
    if (name.endsWith(QLatin1Char('.')))
        name.chop(1);
    if (name == QLatin1String("localhost") || name.endsWith(QLatin1String(".localhost")))
        return true;
    QHostAddress address;
    if (!address.setAddress(name))
        return false; // a name: not judged without resolving it
    bool mapped = false;
    const quint32 v4mapped = address.toIPv4Address(&mapped);
    if (address.protocol() == QAbstractSocket::IPv4Protocol || mapped) {
        const quint32 ip = mapped ? v4mapped : address.toIPv4Address();
        const auto in = [ip](quint32 net, int bits) { return (ip >> (32 - bits)) == (net >> (32 - bits)); };
        return in(0x7F000000, 8) || in(0x0A000000, 8) || in(0xAC100000, 12) || in(0xC0A80000, 16) ||
               in(0x64400000, 10) || in(0xA9FE0000, 16) || in(0x00000000, 8);
    }
    const Q_IPV6ADDR v6 = address.toIPv6Address();
    return address.isLoopback() || (v6[0] & 0xFE) == 0xFC /* fc00::/7 */ ||
           (v6[0] == 0xFE && (v6[1] & 0xC0) == 0x80) /* fe80::/10 */ || address == QHostAddress::AnyIPv6;
}

} // namespace crawl
