#include "cluster/redistlstransport.h"

#include "cluster/redisargv.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslError>
#include <QSslKey>
#include <QSslSocket>
#include <QStringList>

#include <algorithm>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <vector>

namespace crawl {

namespace {

// The same probes as hiredis' redisEnableKeepAlive (0.14: idle 15 s, then every 5 s, 3 misses), so a peer
// that vanished is noticed as soon over TLS as over plain TCP.
void enableKeepAlive(qintptr descriptor) {
    const int fd = static_cast<int>(descriptor);
    const int on = 1;
    const int idle = 15;
    const int interval = 5;
    const int count = 3;
    ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

// A CA bundle, a certificate chain or a key is a few KB (Debian's whole CA bundle is about 200 KB).
constexpr qint64 kMaxTlsFileBytes = 16 * 1024 * 1024;

std::optional<QByteArray> readFile(const QString &path, const char *variable, QString *error) {
    // Checked before open(): a FIFO with no writer would block open() for ever, and a device such as
    // /dev/zero would be read until the memory runs out.
    const QFileInfo info(path);
    if (info.exists() && !info.isFile() && !info.isDir()) {
        *error = QStringLiteral("%1=%2: cannot read it: not a regular file (a FIFO, socket or device)")
                     .arg(QLatin1String(variable), path);
        return std::nullopt;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1=%2: cannot read it: %3")
                     .arg(QLatin1String(variable), path, file.errorString());
        return std::nullopt;
    }
    QByteArray data = file.read(kMaxTlsFileBytes + 1);
    if (data.size() > kMaxTlsFileBytes) {
        *error = QStringLiteral("%1=%2: cannot read it: larger than %3 MB, not a certificate or key file")
                     .arg(QLatin1String(variable), path)
                     .arg(kMaxTlsFileBytes / (1024 * 1024));
        return std::nullopt;
    }
    return data;
}

QString joined(const QList<QSslError> &errors) {
    QStringList texts;
    for (const QSslError &error : errors)
        if (!texts.contains(error.errorString()))
            texts.append(error.errorString());
    return texts.join(QStringLiteral("; "));
}

// What the user can do about it: trust a private CA, or use the name the certificate was made for.
QString certificateHint(const QList<QSslError> &errors) {
    const bool untrusted = std::any_of(errors.cbegin(), errors.cend(), [](const QSslError &e) {
        return e.error() == QSslError::SelfSignedCertificate ||
               e.error() == QSslError::SelfSignedCertificateInChain ||
               e.error() == QSslError::UnableToGetLocalIssuerCertificate ||
               e.error() == QSslError::UnableToGetIssuerCertificate ||
               e.error() == QSslError::UnableToVerifyFirstCertificate ||
               e.error() == QSslError::CertificateUntrusted;
    });
    if (untrusted)
        return QStringLiteral(" (a private CA goes in %1)").arg(QLatin1String(RedisTlsFiles::kCaVariable));
    const bool wrongName = std::any_of(errors.cbegin(), errors.cend(), [](const QSslError &e) {
        return e.error() == QSslError::HostNameMismatch;
    });
    if (wrongName)
        return QStringLiteral(" (connect with a host name the certificate names)");
    return {};
}

int remainingMs(const QElapsedTimer &since, int budgetMs) {
    return static_cast<int>(std::max<qint64>(1, budgetMs - since.elapsed()));
}

} // namespace

RedisTlsTransport::RedisTlsTransport() = default;

RedisTlsTransport::~RedisTlsTransport() {
    close();
}

bool RedisTlsTransport::isOpen() const {
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState && m_socket->isEncrypted();
}

void RedisTlsTransport::close() {
    if (m_socket)
        m_socket->abort(); // no close_notify round trip: a broken peer must not keep us waiting
    m_socket.reset();
    if (m_reader)
        redisReaderFree(m_reader);
    m_reader = nullptr;
}

std::optional<QSslConfiguration> RedisTlsTransport::configurationFor(const RedisTlsFiles &files,
                                                                     QString *error) {
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setPeerVerifyMode(QSslSocket::VerifyPeer);
    config.setProtocol(QSsl::TlsV1_2OrLater);
    if (!files.caCertificates.isEmpty()) {
        const auto data = readFile(files.caCertificates, RedisTlsFiles::kCaVariable, error);
        if (!data)
            return std::nullopt;
        const QList<QSslCertificate> cas = QSslCertificate::fromData(*data, QSsl::Pem);
        if (cas.isEmpty()) {
            *error = QStringLiteral("%1=%2: no PEM certificate in it")
                         .arg(QLatin1String(RedisTlsFiles::kCaVariable), files.caCertificates);
            return std::nullopt;
        }
        config.setCaCertificates(cas); // the private CA alone: the system's CAs do not vouch for this server
    }
    if (!files.certificate.isEmpty() || !files.privateKey.isEmpty()) {
        const auto certData = readFile(files.certificate, RedisTlsFiles::kCertificateVariable, error);
        if (!certData)
            return std::nullopt;
        const QList<QSslCertificate> chain = QSslCertificate::fromData(*certData, QSsl::Pem);
        if (chain.isEmpty()) {
            *error = QStringLiteral("%1=%2: no PEM certificate in it")
                         .arg(QLatin1String(RedisTlsFiles::kCertificateVariable), files.certificate);
            return std::nullopt;
        }
        const auto keyData = readFile(files.privateKey, RedisTlsFiles::kKeyVariable, error);
        if (!keyData)
            return std::nullopt;
        QSslKey key;
        for (const QSsl::KeyAlgorithm algorithm : {QSsl::Ec, QSsl::Rsa, QSsl::Dsa}) {
            key = QSslKey(*keyData, algorithm, QSsl::Pem, QSsl::PrivateKey);
            if (!key.isNull())
                break;
        }
        if (key.isNull()) {
            *error = QStringLiteral("%1=%2: no unencrypted PEM private key (RSA, EC or DSA) in it")
                         .arg(QLatin1String(RedisTlsFiles::kKeyVariable), files.privateKey);
            return std::nullopt;
        }
        config.setLocalCertificateChain(chain);
        config.setPrivateKey(key);
    }
    return config;
}

RedisTlsTransport::Failure RedisTlsTransport::open(const RedisUrl &url, int connectTimeoutMs,
                                                   QString *error) {
    close();
    const QString where = url.redacted();
    if (!QSslSocket::supportsSsl()) {
        *error = QStringLiteral("%1: TLS is not available (Qt found no TLS library: %2)")
                     .arg(where, QSslSocket::sslLibraryVersionString());
        return Failure::Permanent;
    }
    QString why;
    const std::optional<QSslConfiguration> config = configurationFor(url.tlsFiles, &why);
    if (!config) {
        *error = QStringLiteral("%1: %2").arg(where, why);
        return Failure::Permanent;
    }

    QElapsedTimer since;
    since.start();
    m_socket = std::make_unique<QSslSocket>();
    m_socket->setSslConfiguration(*config);
    m_socket->setPeerVerifyName(url.host);
    m_socket->connectToHostEncrypted(url.host, url.port);
    if (!m_socket->waitForConnected(connectTimeoutMs)) {
        *error = QStringLiteral("cannot connect to %1: %2").arg(where, m_socket->errorString());
        close();
        return Failure::Transient;
    }
    if (m_socket->error() == QAbstractSocket::SslInternalError ||
        m_socket->error() == QAbstractSocket::SslInvalidUserDataError) {
        // Qt could not set up the handshake with our own files (Qt 6.4 says only "Unable to init SSL
        // Context"): a key that is not the certificate's. The handshake then never starts, and waiting for
        // it would end in a timeout that blames the server.
        const bool haveCertificate = !url.tlsFiles.certificate.isEmpty();
        QString detail = m_socket->errorString().trimmed();
        if (detail.endsWith(QLatin1Char(':')))
            detail.chop(1); // Qt appends OpenSSL's error queue, which is empty here
        *error = QStringLiteral("%1: TLS could not start (%2)%3")
                     .arg(where, detail,
                          haveCertificate ? QStringLiteral(": is %1 the key of %2=%3?")
                                                .arg(QLatin1String(RedisTlsFiles::kKeyVariable),
                                                     QLatin1String(RedisTlsFiles::kCertificateVariable),
                                                     url.tlsFiles.certificate)
                                          : QString());
        close();
        return Failure::Permanent;
    }
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // hiredis sets TCP_NODELAY too
    enableKeepAlive(m_socket->socketDescriptor());

    if (!m_socket->waitForEncrypted(remainingMs(since, connectTimeoutMs))) {
        const QList<QSslError> certificateErrors = m_socket->sslHandshakeErrors();
        Failure failure = Failure::Permanent;
        if (!certificateErrors.isEmpty()) {
            *error = QStringLiteral("%1: the server's TLS certificate is refused: %2%3")
                         .arg(where, joined(certificateErrors), certificateHint(certificateErrors));
        } else if (m_socket->error() == QAbstractSocket::SocketTimeoutError) {
            // A plain Redis port reads the TLS hello as the start of a command and waits for the rest.
            *error = QStringLiteral("%1: no TLS handshake within %2 ms (is this a plain Redis port? plain "
                                    "ports take redis://)")
                         .arg(where)
                         .arg(connectTimeoutMs);
        } else if (m_socket->error() == QAbstractSocket::SslHandshakeFailedError) {
            *error =
                QStringLiteral("%1: TLS handshake failed: %2 (is this a TLS port? plain Redis ports take "
                               "redis://)")
                    .arg(where, m_socket->errorString());
        } else {
            // Closed or reset during the handshake: a server restarting, or one refusing this client.
            *error = QStringLiteral("%1: TLS handshake failed: %2").arg(where, m_socket->errorString());
            failure = Failure::Transient;
        }
        close();
        return failure;
    }

    m_reader = redisReaderCreate();
    IoError kind = IoError::None;
    QString detail;
    void *pong = command({QByteArrayLiteral("PING")}, remainingMs(since, connectTimeoutMs), &kind, &detail);
    if (!pong) {
        if (kind == IoError::Timeout) {
            *error = QStringLiteral("no answer from %1 within %2 ms").arg(where).arg(connectTimeoutMs);
            return Failure::Transient;
        }
        // With TLS 1.3 the client finishes its handshake first; a server that wants a client certificate
        // (redis-server's default, tls-auth-clients yes) or does not trust ours hangs up only then.
        const bool haveCertificate = !url.tlsFiles.certificate.isEmpty();
        *error =
            haveCertificate
                ? QStringLiteral("%1 closed the TLS connection right after the handshake (%2): it does not "
                                 "accept this client certificate (%3; is it signed by a CA in the server's "
                                 "tls-ca-cert-file?)")
                      .arg(where, detail, url.tlsFiles.certificate)
                : QStringLiteral("%1 closed the TLS connection right after the handshake (%2): it wants a "
                                 "client certificate (tls-auth-clients yes): set %3 and %4")
                      .arg(where, detail, QLatin1String(RedisTlsFiles::kCertificateVariable),
                           QLatin1String(RedisTlsFiles::kKeyVariable));
        return Failure::Permanent;
    }
    // Any answer will do (NOAUTH included): the server accepted this TLS session.
    freeReplyObject(pong);
    return Failure::None;
}

QString RedisTlsTransport::socketError() const {
    return m_socket ? m_socket->errorString() : QStringLiteral("not connected");
}

void *RedisTlsTransport::command(const QList<QByteArray> &args, int timeoutMs, IoError *kind,
                                 QString *detail) {
    *kind = IoError::None;
    if (!m_socket || !m_reader) {
        *kind = IoError::Closed;
        *detail = QStringLiteral("not connected");
        return nullptr;
    }
    RedisArgv argv(args);
    char *formatted = nullptr;
    const int length = redisFormatCommandArgv(&formatted, argv.count(), argv.argv(), argv.lengths());
    if (length < 0 || !formatted) {
        *kind = IoError::Failed;
        *detail = QStringLiteral("cannot format the command (out of memory)");
        close();
        return nullptr;
    }
    const qint64 written = m_socket->write(formatted, length);
    redisFreeCommand(formatted);
    if (written != length) {
        *kind = IoError::Closed;
        *detail = socketError();
        close();
        return nullptr;
    }
    // Pushed out here; waitForReadyRead below would also write what is left, but a timeout must be told
    // apart.
    while (m_socket->bytesToWrite() > 0 || m_socket->encryptedBytesToWrite() > 0) {
        if (!m_socket->waitForBytesWritten(timeoutMs)) {
            *kind =
                m_socket->error() == QAbstractSocket::SocketTimeoutError ? IoError::Timeout : IoError::Closed;
            *detail = socketError();
            close();
            return nullptr;
        }
    }
    return readReply(timeoutMs, kind, detail);
}

void *RedisTlsTransport::readReply(int timeoutMs, IoError *kind, QString *detail) {
    for (;;) {
        void *reply = nullptr;
        if (redisReaderGetReply(m_reader, &reply) != REDIS_OK) {
            *kind = IoError::Failed;
            *detail = QString::fromLatin1(m_reader->errstr);
            close();
            return nullptr;
        }
        if (reply)
            return reply;
        // Bytes the socket already decrypted (between calls its thread's event loop may have read some).
        if (m_socket->bytesAvailable() > 0) {
            const QByteArray chunk = m_socket->readAll();
            redisReaderFeed(m_reader, chunk.constData(), static_cast<size_t>(chunk.size()));
            continue;
        }
        if (m_socket->state() != QAbstractSocket::ConnectedState) {
            *kind = IoError::Closed;
            *detail = socketError();
            close();
            return nullptr;
        }
        if (!m_socket->waitForReadyRead(timeoutMs) && m_socket->bytesAvailable() == 0) {
            const bool timedOut = m_socket->error() == QAbstractSocket::SocketTimeoutError;
            *kind = timedOut                                                      ? IoError::Timeout
                    : m_socket->error() == QAbstractSocket::RemoteHostClosedError ? IoError::Closed
                                                                                  : IoError::Failed;
            *detail = socketError();
            close();
            return nullptr;
        }
    }
}

} // namespace crawl
