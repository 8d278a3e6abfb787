#include "runwindow.h"

#include "commandlinelimits.h"
#include "engine/crawlengine.h"
#include "mainwindow.h"
#include "pages/crawlruleseditor.h"

#include <QApplication>
#include <QFile>
#include <QIcon>
#include <QMessageBox>

namespace ui {

int runWindow(const WindowStart &start) {
    QApplication::setOrganizationName(QStringLiteral("Crawlscope"));
    QApplication::setApplicationName(QStringLiteral("Crawlscope"));
    QApplication::setApplicationVersion(QStringLiteral(CRAWLSCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("crawlscope"));
    const QString icon = QStringLiteral(":/icons/crawlscope.svg");
    if (QFile::exists(icon))
        QApplication::setWindowIcon(QIcon(icon));

    MainWindow window;
    window.show();
    applyWindowStart(window, start);
    if (start.crawl)
        return QApplication::exec();
    // Test hook (tests/ui/tst_crawlfiles runs the app, then kills it mid-crawl): start the opened list.
    if (qEnvironmentVariableIsSet("CRAWLSCOPE_TEST_START_OPENED_LIST") && !start.fileToOpen.isEmpty())
        window.startCrawl();
    else
        window.offerInterruptedCrawl(); // a crawl this user's window was running when it died
    return QApplication::exec();
}

namespace {

void startHandedCrawl(MainWindow &window, const WindowStart::Crawl &crawl) {
    // The crawl's own limits, for this session only: setLimits() does not save them.
    window.setLimits(crawl.limits, crawl.policy);
    window.setHostLabels(crawl.hostLabels);
    window.loadText(crawl.list, crawl.name);
    window.startCrawl();
    window.showStatusMessage(
        QObject::tr("The demo crawls with its own limits; your saved limits are kept "
                    "for your own lists (Reset in the Limits panel restores the defaults)"));
}

} // namespace

void applyWindowStart(MainWindow &window, const WindowStart &start) {
    if (start.demo) {
        window.setDemoLauncher([&window, demo = start.demo] {
            if (const std::optional<WindowStart::Crawl> crawl = demo())
                startHandedCrawl(window, *crawl);
            else
                window.showStatusMessage(QObject::tr("The demo site could not start"));
        });
    }
    if (start.quality)
        window.crawlRules()->setSessionQuality(*start.quality);
    if (!start.warning.isEmpty()) {
        QMessageBox::warning(&window, start.warningTitle, start.warning);
        return;
    }
    if (start.crawl) {
        startHandedCrawl(window, *start.crawl);
        return;
    }
    if (!start.limitFlags.isEmpty()) {
        crawl::CrawlLimits limits = window.engine()->limits();
        crawl::FetchPolicy policy = window.engine()->fetchPolicy();
        applyCommandLineFlags(start.limitFlags, start.flagLimits, start.flagPolicy, &limits, &policy);
        window.setLimits(limits, policy);
    }
    if (!start.fileToOpen.isEmpty())
        window.loadFile(start.fileToOpen);
}

} // namespace ui
