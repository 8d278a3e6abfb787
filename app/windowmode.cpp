#include "windowmode.h"

#include "commandlinequality.h"
#include "runwindow.h"

#ifdef CRAWLSCOPE_HAVE_DEMO
#include "demosettings.h"
#include "demosite.h"
#endif

#include <QApplication>

#include <memory>

int runWindowMode(int argc, char **argv, const crawl::CommandLineOptions &options) {
    QApplication app(argc, argv);
    ui::WindowStart start;
    start.fileToOpen = options.fileToOpen;
    start.limitFlags = options.explicitFlags;
    start.flagLimits = options.limits;
    start.flagPolicy = options.policy;
    if (ui::namesQualityFlag(options.explicitFlags))
        start.quality = options.quality;
    const bool startDemo = options.demo;
#ifdef CRAWLSCOPE_HAVE_DEMO
    // Created after the application (its sockets need the event loop) and before the window, so that it
    // outlives it: the window's engine may still talk to it while stopping.
    std::unique_ptr<testsite::DemoSite> site;
    // Starts the demo site once (at launch with --demo, or from the empty window's button).
    auto demoCrawl = [&site, options]() -> std::optional<ui::WindowStart::Crawl> {
        if (!site)
            site = std::make_unique<testsite::DemoSite>(demo::demoScale());
        if (!site->isListening())
            return std::nullopt;
        const demo::DemoSettings settings =
            demo::demoSettings({options.limits, options.policy}, options.explicitFlags);
        QList<QPair<QString, QString>> profiles;
        for (const testsite::DemoSite::Profile &profile : site->profiles())
            profiles.append({profile.host, profile.name});
        return ui::WindowStart::Crawl{site->urlList(), QObject::tr("built-in demo"), settings.limits,
                                      settings.policy, demo::demoHostLabels(profiles)};
    };
    start.demo = demoCrawl;
    if (startDemo) {
        start.crawl = demoCrawl();
        if (!start.crawl) {
            start.warningTitle = QObject::tr("Demo unavailable");
            start.warning = QObject::tr("The demo site could not start: %1").arg(site->errorString());
        }
    }
#else
    Q_UNUSED(startDemo); // main() refuses --demo when the demo is not built in
#endif
    return ui::runWindow(start);
}
