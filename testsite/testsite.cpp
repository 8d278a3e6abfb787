#include "testsite.h"

#include "siterecorder.h"
#include "siteserver.h"

#include <QThread>

#include <algorithm>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <chrono>

namespace testsite {

QList<QPair<QByteArray, QByteArray>> RequestRecord::headers() const {
    QList<QPair<QByteArray, QByteArray>> out;
    const QList<QByteArray> lines = head.split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) { // line 0 is the request line
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            out.append({lines[i].left(colon).trimmed(), lines[i].mid(colon + 1).trimmed()});
    }
    return out;
}

QByteArray RequestRecord::header(const QByteArray &name) const {
    for (const auto &[n, value] : headers()) {
        if (n.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

bool RequestRecord::hasHeader(const QByteArray &name) const {
    for (const auto &[n, value] : headers()) {
        if (n.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

class TestSite::Private {
public:
    SiteRecorder recorder;
    QThread thread;
    SiteServer *server = nullptr;

    template <typename F> void runInServer(F &&f) {
        if (QThread::currentThread() == &thread)
            f();
        else
            QMetaObject::invokeMethod(server, std::forward<F>(f), Qt::BlockingQueuedConnection);
    }
};

TestSite::TestSite(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>()) {
    d->thread.setObjectName(QStringLiteral("testsite"));
    d->server = new SiteServer(&d->recorder);
    d->server->moveToThread(&d->thread);
    d->thread.start();
}

TestSite::~TestSite() {
    SiteServer *server = d->server;
    d->runInServer([server] {
        server->shutdown();
        // Connections and listeners are children of the server: delete them here, in their thread.
        delete server;
    });
    d->server = nullptr;
    d->thread.quit();
    d->thread.wait();
}

QString TestSite::addHost(const QHostAddress &address, quint16 port, QString *error) {
    QString result;
    QString err;
    SiteServer *server = d->server;
    d->runInServer([&] { result = server->listen(address, port, &err); });
    if (result.isEmpty() && error)
        *error = err;
    return result;
}

QStringList TestSite::hosts() const {
    return d->recorder.hostNames();
}

QString TestSite::baseUrl(const QString &host) const {
    return QStringLiteral("http://") + host;
}

QStringList TestSite::urls(const QString &host, int count, const QString &targetPattern) const {
    QStringList list;
    for (int i = 0; i < count; ++i)
        list << baseUrl(host) + targetPattern.arg(i);
    return list;
}

QByteArray TestSite::urlList(const QString &host, int count, const QString &targetPattern) const {
    QByteArray list;
    for (const QString &url : urls(host, count, targetPattern))
        list += url.toUtf8() + '\n';
    return list;
}

bool TestSite::setRobotsTxt(const QString &host, const RobotsTxt &robots) {
    return d->recorder.setRobots(host, robots);
}

HostRecord TestSite::hostRecord(const QString &host) const {
    return d->recorder.hostRecord(host);
}

QList<RequestRecord> TestSite::requests(const QString &host) const {
    return d->recorder.requests(host);
}

qint64 TestSite::totalRequests() const {
    return d->recorder.totalRequests();
}

void TestSite::resetRecords() {
    d->recorder.reset();
}

qint64 TestSite::nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

QByteArray TestSite::recordsJson(const QString &host, bool includeRequests, bool includeHeaders) const {
    return d->recorder.json(host, includeRequests, includeHeaders);
}

void TestSite::setControlEndpoints(bool enabled) {
    d->recorder.setControlEndpoints(enabled);
}

void TestSite::setServerNice(int nice) {
#ifdef Q_OS_LINUX
    d->runInServer(
        [nice] { ::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), std::clamp(nice, 0, 19)); });
#else
    Q_UNUSED(nice);
#endif
}

void TestSite::setMaxRequestRecords(qint64 maxRecords) {
    d->recorder.setMaxRecords(maxRecords);
}

} // namespace testsite
