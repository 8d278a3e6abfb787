// crawlscope: the window, the headless command line and the demo. Everything else lives in the libraries.
#include "clustercoordinator.h"
#include "clusterworkerrunner.h"
#include "commandline.h"
#include "engine/crawlengine.h"
#include "headlessrunner.h"
#include "journalexport.h"
#include "store/storedcrawlconfig.h"
#include "storedconfigoptions.h"

#ifdef CRAWLSCOPE_HAVE_DEMO
#include "headlessdemo.h"
#endif
#ifdef CRAWLSCOPE_HAVE_GUI
#include "windowmode.h"
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
    crawl::CommandLineOptions options = parsed.options;
    if (!options.resume.isEmpty() &&
        options.clusterUrl.isEmpty()) { // --cluster --resume NAME: Redis has them
        // The stored crawl's flags, overridden by the ones given now.
        QString error;
        const QMap<QString, QString> stored = crawl::CrawlEngine::readJournalSettings(options.resume, &error);
        if (!error.isEmpty()) {
            print(stderr, QStringLiteral("crawlscope: %1\n").arg(error));
            return crawl::ExitUsage;
        }
        const QString storedFlags = stored.value(QStringLiteral("cli.arguments"));
        QStringList ignored;
        const crawl::CommandLineParse merged = crawl::parseCommandLine(crawl::resumeArguments(
            arguments, storedFlags.isEmpty() ? QStringList() : storedFlags.split(QLatin1Char('\n')),
            &ignored));
        if (!merged.ok) {
            print(stderr, QStringLiteral("crawlscope: %1 (with the flags stored in %2)\n")
                              .arg(merged.error, options.resume));
            return crawl::ExitUsage;
        }
        for (const QString &flag : ignored)
            print(stderr, QStringLiteral("crawlscope: ignoring \"%1\" stored in %2: not a crawl flag\n")
                              .arg(flag.left(200), options.resume));
        // Secrets are not stored: the crawl needs them given again (they are not in merged's flags).
        const QString withheld = stored.value(QString::fromLatin1(crawl::kWithheldHeadersKey));
        if (!withheld.isEmpty() && !options.explicitFlags.contains(QStringLiteral("header")))
            print(stderr, QStringLiteral("crawlscope: the crawl was started with credential header(s) %1, "
                                         "which are not stored in %2: give --header again to send them\n")
                              .arg(withheld.split(QLatin1Char('\n')).join(QStringLiteral(", ")).left(300),
                                   options.resume));
        options = merged.options;
        if (storedFlags.isEmpty()) {
            // A crawl started in the window keeps no flags, only the settings it ran with: start from
            // those, not from the command line's defaults.
            QString refused;
            const auto config = crawl::StoredCrawlConfig::fromSettings(stored, &refused);
            if (!refused.isEmpty()) {
                print(stderr, QStringLiteral("crawlscope: %1: %2\n").arg(options.resume, refused));
                return crawl::ExitUsage;
            }
            if (config)
                options = crawl::withStoredCrawlConfig(options, *config);
        }
    }
    using Mode = crawl::CommandLineOptions::Mode;
    if (options.mode == Mode::Help) {
        print(stdout, crawl::commandLineHelp());
        return crawl::ExitOk;
    }
    if (options.mode == Mode::Version) {
        print(stdout, crawl::versionText() + QLatin1Char('\n'));
        return crawl::ExitOk;
    }
    if (options.mode == Mode::Export) {
        QCoreApplication app(argc, argv);
        return crawl::exportJournal(options.exportStore, options.output);
    }

#ifndef CRAWLSCOPE_HAVE_DEMO
    if (options.demo) {
        print(stderr, QStringLiteral("crawlscope: --demo is not built in (this build was configured with "
                                     "CRAWLSCOPE_BUILD_DEMO=OFF); crawl a list of your own instead\n"));
        return crawl::ExitUsage;
    }
#endif

    bool headless = options.mode == Mode::Headless;
#ifdef CRAWLSCOPE_HAVE_GUI
    if (!headless && options.demo && !displayAvailable()) {
        print(stderr, QStringLiteral("crawlscope: no display found; running the demo headless\n"));
        headless = true;
    }
    if (!headless)
        return runWindowMode(argc, argv, options);
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
#ifdef CRAWLSCOPE_HAVE_DEMO
    if (options.demo)
        return demo::runHeadlessDemo(options);
#endif
    if (options.clusterWorker)
        return crawl::runClusterWorker(options);
    if (options.clusterSet)
        return crawl::runClusterSet(options);
    const crawl::InputSource input = options.input == QLatin1String("-")
                                         ? crawl::InputSource::fromStdin()
                                         : crawl::InputSource::fromFile(options.input);
    if (!options.clusterUrl.isEmpty())
        return crawl::runClusterCoordinator(options, input);
    return crawl::runHeadless(options, input);
}
