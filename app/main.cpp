// crawlscope: the window, the headless command line and the demo. Everything else lives in the libraries.
#include "commandline.h"
#include "demosite.h"
#include "headlessrunner.h"

#ifdef CRAWLSCOPE_HAVE_GUI
#include "runwindow.h"
#endif

#include <QCoreApplication>

#include <cstdio>

namespace {

void print(FILE *stream, const QString &text) {
    const QByteArray bytes = text.toLocal8Bit();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
}

bool displayAvailable() {
    return qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY") ||
           qEnvironmentVariableIsSet("QT_QPA_PLATFORM");
}

// The demo wants a crawl that shows every behaviour within a minute; flags given explicitly still win.
void applyDemoDefaults(crawl::CommandLineOptions *o) {
    const auto unless = [o](const char *flag, auto apply) {
        if (!o->explicitFlags.contains(QLatin1String(flag)))
            apply();
    };
    unless("concurrency", [o] { o->limits.globalInFlight = 32; });
    unless("per-host", [o] { o->limits.perHostInFlight = 4; });
    unless("interval-ms", [o] { o->limits.intervalMs = 100; });
    unless("timeout", [o] { o->policy.totalTimeoutS = 10; });
    unless("idle-timeout", [o] { o->policy.idleTimeoutS = 5; });
    unless("max-retry-after", [o] { o->policy.maxRetryAfterS = 5; });
    unless("backoff-ms", [o] { o->policy.backoffBaseMs = 200; });
    unless("max-bytes", [o] { o->policy.maxBodyBytes = 1 << 20; });
}

double demoScale() {
    bool ok = false;
    const double scale = qEnvironmentVariable("CRAWLSCOPE_DEMO_SCALE").toDouble(&ok);
    return ok && scale > 0 ? scale : 1.0;
}

int runHeadlessDemo(crawl::CommandLineOptions options) {
    applyDemoDefaults(&options);
    testsite::DemoSite demo(demoScale());
    if (!demo.isListening()) {
        print(stderr,
              QStringLiteral("crawlscope: the demo site could not start: %1\n").arg(demo.errorString()));
        return crawl::ExitUsage;
    }
    QString banner = QStringLiteral("crawlscope demo: crawling the built-in site on loopback\n");
    for (const auto &profile : demo.profiles())
        banner += QStringLiteral("  %1  %2  (%3 URLs) %4\n")
                      .arg(profile.host, -22)
                      .arg(profile.name, -12)
                      .arg(profile.urls)
                      .arg(profile.description);
    print(stderr, banner);
    return crawl::runHeadless(options, crawl::InputSource::fromText(demo.urlList()),
                              QStringLiteral("crawlscope-demo.csv"));
}

} // namespace

int main(int argc, char **argv) {
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const crawl::CommandLineParse parsed = crawl::parseCommandLine(arguments);
    if (!parsed.ok) {
        print(stderr, QStringLiteral("crawlscope: %1\nTry 'crawlscope --help' for more information.\n")
                          .arg(parsed.error));
        return crawl::ExitUsage;
    }
    const crawl::CommandLineOptions &options = parsed.options;
    using Mode = crawl::CommandLineOptions::Mode;
    if (options.mode == Mode::Help) {
        print(stdout, crawl::commandLineHelp());
        return crawl::ExitOk;
    }
    if (options.mode == Mode::Version) {
        print(stdout, crawl::versionText() + QLatin1Char('\n'));
        return crawl::ExitOk;
    }

    bool headless = options.mode == Mode::Headless;
#ifdef CRAWLSCOPE_HAVE_GUI
    if (!headless && options.demo && !displayAvailable()) {
        print(stderr, QStringLiteral("crawlscope: no display found; running the demo headless\n"));
        headless = true;
    }
    if (!headless)
        return ui::runWindow(argc, argv, options.fileToOpen, options.demo);
#else
    if (!headless) {
        if (!options.demo) {
            print(stderr, QStringLiteral("crawlscope: this build has no window; use --headless\n"));
            return crawl::ExitUsage;
        }
        headless = true;
    }
    Q_UNUSED(displayAvailable);
#endif

    // Not QT_NO_GLIB: with Qt 6.4's non-glib dispatcher QNAM drops kept-alive connections after about two
    // requests (measured against the test site: 35 connections for 300 sequential requests instead of 1).
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("Crawlscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CRAWLSCOPE_VERSION));
    if (options.demo)
        return runHeadlessDemo(options);
    const crawl::InputSource input = options.input == QLatin1String("-")
                                         ? crawl::InputSource::fromStdin()
                                         : crawl::InputSource::fromFile(options.input);
    return crawl::runHeadless(options, input);
}
