#include "runwindow.h"

#include "demosite.h"
#include "engine/crawlengine.h"
#include "mainwindow.h"

#include <QApplication>
#include <QFile>
#include <QIcon>
#include <QMessageBox>
#include <QSettings>

#include <memory>

namespace ui {

int runWindow(int argc, char **argv, const QString &fileToOpen, bool demo) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Crawlscope"));
    QApplication::setApplicationName(QStringLiteral("Crawlscope"));
    QApplication::setApplicationVersion(QStringLiteral(CRAWLSCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("crawlscope"));
    const QString icon = QStringLiteral(":/icons/crawlscope.svg");
    if (QFile::exists(icon))
        QApplication::setWindowIcon(QIcon(icon));

    // Declared before the window so it outlives it: the window's engine may still talk to it while
    // stopping.
    std::unique_ptr<testsite::DemoSite> demoSite;
    if (demo) {
        bool ok = false;
        double scale = qEnvironmentVariable("CRAWLSCOPE_DEMO_SCALE").toDouble(&ok);
        if (!ok || scale <= 0)
            scale = 1.0;
        demoSite = std::make_unique<testsite::DemoSite>(scale);
    }

    MainWindow window;
    window.show();
    if (demoSite) {
        if (!demoSite->isListening()) {
            QMessageBox::warning(
                &window, QObject::tr("Demo unavailable"),
                QObject::tr("The demo site could not start: %1").arg(demoSite->errorString()));
        } else {
            // First run: limits that show every behaviour of the demo within a minute (as the command
            // line's --demo). Limits the user has set before are kept.
            if (!QSettings().contains(QStringLiteral("limits/perHostInFlight"))) {
                crawl::CrawlLimits limits = window.engine()->limits();
                limits.globalInFlight = 32;
                limits.perHostInFlight = 4;
                limits.intervalMs = 100;
                crawl::FetchPolicy policy = window.engine()->fetchPolicy();
                policy.totalTimeoutS = 10;
                window.setLimits(limits, policy);
            }
            window.loadText(demoSite->urlList(), QObject::tr("built-in demo"));
            window.startCrawl();
        }
    } else if (!fileToOpen.isEmpty()) {
        window.loadFile(fileToOpen);
    }
    return app.exec();
}

} // namespace ui
