#include "runwindow.h"

#include "commandlinelimits.h"
#include "engine/crawlengine.h"
#include "mainwindow.h"

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
    return QApplication::exec();
}

void applyWindowStart(MainWindow &window, const WindowStart &start) {
    if (!start.warning.isEmpty()) {
        QMessageBox::warning(&window, start.warningTitle, start.warning);
        return;
    }
    if (start.crawl) {
        // The crawl's own limits, for this session only: setLimits() does not save them.
        window.setLimits(start.crawl->limits, start.crawl->policy);
        window.loadText(start.crawl->list, start.crawl->name);
        window.startCrawl();
        window.showStatusMessage(
            QObject::tr("The demo crawls with its own limits; your saved limits are kept "
                        "for your own lists (Reset in the Limits panel restores the defaults)"));
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
