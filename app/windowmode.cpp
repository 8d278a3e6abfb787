#include "windowmode.h"

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
    const bool startDemo = options.demo;
#ifdef CRAWLSCOPE_HAVE_DEMO
    // Created after the application (its sockets need the event loop) and before the window, so that it
    // outlives it: the window's engine may still talk to it while stopping.
    std::unique_ptr<testsite::DemoSite> site;
    if (startDemo) {
        site = std::make_unique<testsite::DemoSite>(demo::demoScale());
        if (site->isListening()) {
            const demo::DemoSettings settings =
                demo::demoSettings({options.limits, options.policy}, options.explicitFlags);
            start.crawl = ui::WindowStart::Crawl{site->urlList(), QObject::tr("built-in demo"),
                                                 settings.limits, settings.policy};
        } else {
            start.warningTitle = QObject::tr("Demo unavailable");
            start.warning = QObject::tr("The demo site could not start: %1").arg(site->errorString());
        }
    }
#else
    Q_UNUSED(startDemo); // main() refuses --demo when the demo is not built in
#endif
    return ui::runWindow(start);
}
