#include "status/windowtitle.h"

#include <QCoreApplication>

namespace ui {

QString crawlWindowTitle(const QString &listName, const crawl::CrawlSnapshot &s) {
    const QString app = QStringLiteral("Crawlscope");
    if (listName.isEmpty())
        return app;
    QString title = QStringLiteral("%1 — %2").arg(listName, app);
    const bool crawling = s.state == crawl::CrawlState::Running || s.state == crawl::CrawlState::Paused;
    if (crawling && s.total > 0) {
        // Floor, so 100% only shows when every URL is done.
        const qint64 percent = std::min<qint64>(100, s.done * 100 / s.total);
        title = QStringLiteral("%1% — ").arg(percent) + title;
        if (s.state == crawl::CrawlState::Paused)
            title = QCoreApplication::translate("ui::MainWindow", "(paused) ") + title;
    }
    return title;
}

} // namespace ui
