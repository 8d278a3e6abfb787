#include "runwindow.h"

#include "mainwindow.h"

#include <QApplication>
#include <QFile>
#include <QIcon>
#include <QMessageBox>
#include <QSettings>

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
    if (!start.warning.isEmpty()) {
        QMessageBox::warning(&window, start.warningTitle, start.warning);
    } else if (start.crawl) {
        // Limits the user has set before are kept.
        if (!QSettings().contains(QStringLiteral("limits/perHostInFlight")))
            window.setLimits(start.crawl->limits, start.crawl->policy);
        window.loadText(start.crawl->list, start.crawl->name);
        window.startCrawl();
    } else if (!start.fileToOpen.isEmpty()) {
        window.loadFile(start.fileToOpen);
    }
    return QApplication::exec();
}

} // namespace ui
