// crawlscope-testsite: the local test site as a process, for benchmarks and peers in other languages.
//
//   crawlscope-testsite [--hosts 127.0.0.2,127.0.0.3[:PORT] | --count N] [--port P]
//                       [--demo [--scale X] [--list FILE]] [--exit-on-stdin-eof] [--max-records N]
//
// Prints one line {"hosts":["127.0.0.2:41234",...]} (with --demo also "profiles") and flushes once
// listening. GET /__records and /__reset work on every host. Exits 0 on SIGTERM/SIGINT or stdin EOF
// (with --exit-on-stdin-eof); 2 on bad options or when it cannot listen.
#include "demosite.h"
#include "testsite.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

namespace {

int g_signalPipe[2] = {-1, -1};

// Only write() here: everything else happens in the event loop when the notifier fires.
void onSignal(int) {
    const char c = 's';
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[1], &c, 1);
}

bool installSignalPipe() {
    if (::pipe(g_signalPipe) != 0)
        return false;
    for (const int fd : g_signalPipe) {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigaction(SIGINT, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    return true;
}

QByteArray jsonQuote(const QString &s) {
    QByteArray out = "\"";
    for (const char c : s.toUtf8()) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + '"';
}

} // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("crawlscope-testsite"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CRAWLSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Local HTTP/1.1 test site on loopback. Prints {\"hosts\":[\"addr:port\",...]} on one "
        "line when ready.\n"
        "Behaviour per request is chosen by the query string (see testsite/testsite.h).\n"
        "GET /__records returns what the server observed as JSON (?host=H, ?requests=0, ?headers=1); GET "
        "/__reset clears it."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption hostsOpt(
        QStringLiteral("hosts"),
        QStringLiteral("Comma-separated addresses (optionally addr:port) to listen on."),
        QStringLiteral("list"));
    const QCommandLineOption countOpt(
        QStringLiteral("count"), QStringLiteral("Listen on N hosts 127.0.0.2, 127.0.0.3, ... (default 1)."),
        QStringLiteral("N"));
    const QCommandLineOption portOpt(QStringLiteral("port"),
                                     QStringLiteral("Port for every host (0 = ephemeral)."),
                                     QStringLiteral("P"), QStringLiteral("0"));
    const QCommandLineOption demoOpt(QStringLiteral("demo"), QStringLiteral("Serve the demo site."));
    const QCommandLineOption scaleOpt(QStringLiteral("scale"),
                                      QStringLiteral("Demo size factor (default 1.0)."), QStringLiteral("X"),
                                      QStringLiteral("1.0"));
    const QCommandLineOption listOpt(QStringLiteral("list"),
                                     QStringLiteral("With --demo: write the URL list here."),
                                     QStringLiteral("FILE"));
    const QCommandLineOption stdinOpt(QStringLiteral("exit-on-stdin-eof"),
                                      QStringLiteral("Exit when stdin closes."));
    const QCommandLineOption maxRecOpt(QStringLiteral("max-records"),
                                       QStringLiteral("Keep at most N request records (-1 = all, default)."),
                                       QStringLiteral("N"), QStringLiteral("-1"));
    parser.addOptions({hostsOpt, countOpt, portOpt, demoOpt, scaleOpt, listOpt, stdinOpt, maxRecOpt});
    parser.process(app);

    auto fail = [](const QString &message) {
        std::fprintf(stderr, "crawlscope-testsite: %s\n", qPrintable(message));
        return 2;
    };

    bool ok = false;
    const uint port = parser.value(portOpt).toUInt(&ok);
    if (!ok || port > 65535)
        return fail(QStringLiteral("invalid --port"));
    const qint64 maxRecords = parser.value(maxRecOpt).toLongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("invalid --max-records"));

    if (!installSignalPipe())
        return fail(QStringLiteral("cannot create the signal pipe"));

    std::unique_ptr<testsite::DemoSite> demo;
    std::unique_ptr<testsite::TestSite> own;
    testsite::TestSite *site = nullptr;
    QStringList hosts;

    if (parser.isSet(demoOpt)) {
        const double scale = parser.value(scaleOpt).toDouble(&ok);
        if (!ok || scale <= 0)
            return fail(QStringLiteral("invalid --scale"));
        demo = std::make_unique<testsite::DemoSite>(scale);
        if (!demo->isListening())
            return fail(QStringLiteral("demo site cannot listen: ") + demo->errorString());
        site = &demo->site();
        hosts = site->hosts();
        if (parser.isSet(listOpt)) {
            QFile f(parser.value(listOpt));
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(demo->urlList()) < 0)
                return fail(QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString()));
        }
    } else {
        QStringList specs;
        if (parser.isSet(hostsOpt)) {
            specs = parser.value(hostsOpt).split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else {
            const int count = parser.isSet(countOpt) ? parser.value(countOpt).toInt(&ok) : 1;
            if (!ok || count < 1 || count > 10000)
                return fail(QStringLiteral("invalid --count"));
            for (int i = 0; i < count; ++i)
                specs.append(QHostAddress(quint32(0x7F000002u + quint32(i))).toString());
        }
        own = std::make_unique<testsite::TestSite>();
        site = own.get();
        for (QString spec : std::as_const(specs)) {
            spec = spec.trimmed();
            quint16 p = quint16(port);
            const qsizetype colon = spec.lastIndexOf(QLatin1Char(':'));
            if (colon > 0 && spec.count(QLatin1Char(':')) == 1) { // addr:port (IPv4 only)
                p = quint16(spec.mid(colon + 1).toUInt(&ok));
                if (!ok)
                    return fail(QStringLiteral("invalid host %1").arg(spec));
                spec.truncate(colon);
            }
            const QHostAddress address(spec);
            if (address.isNull())
                return fail(QStringLiteral("invalid address %1").arg(spec));
            QString error;
            const QString h = site->addHost(address, p, &error);
            if (h.isEmpty())
                return fail(QStringLiteral("cannot listen on %1:%2: %3").arg(spec).arg(p).arg(error));
            hosts.append(h);
        }
    }
    site->setControlEndpoints(true);
    site->setMaxRequestRecords(maxRecords);

    QByteArray line = "{\"hosts\":[";
    for (qsizetype i = 0; i < hosts.size(); ++i)
        line += (i ? "," : "") + jsonQuote(hosts[i]);
    line += ']';
    if (demo) {
        line += ",\"profiles\":[";
        const QList<testsite::DemoSite::Profile> profiles = demo->profiles();
        for (qsizetype i = 0; i < profiles.size(); ++i) {
            const auto &p = profiles[i];
            line += (i ? "," : "") + QByteArray("{\"name\":") + jsonQuote(p.name) +
                    ",\"host\":" + jsonQuote(p.host) + ",\"urls\":" + QByteArray::number(p.urls) + '}';
        }
        line += ']';
    }
    line += "}\n";
    std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
    std::fflush(stdout);

    QSocketNotifier signalNotifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&signalNotifier, &QSocketNotifier::activated, &app, [] {
        char buf[16];
        while (::read(g_signalPipe[0], buf, sizeof buf) > 0) {
        }
        QCoreApplication::quit();
    });

    std::unique_ptr<QSocketNotifier> stdinNotifier;
    if (parser.isSet(stdinOpt)) {
        stdinNotifier = std::make_unique<QSocketNotifier>(STDIN_FILENO, QSocketNotifier::Read);
        QSocketNotifier *n = stdinNotifier.get();
        QObject::connect(n, &QSocketNotifier::activated, &app, [n] {
            char buf[4096];
            const ssize_t r = ::read(STDIN_FILENO, buf, sizeof buf);
            if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
                n->setEnabled(false);
                QCoreApplication::quit();
            }
        });
    }

    const int rc = QCoreApplication::exec();
    // The sites stop their server thread in their destructors (connections are closed, not leaked).
    demo.reset();
    own.reset();
    return rc;
}
