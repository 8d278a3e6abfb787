#pragma once

#include "input/urllistreader.h"

#include <QFrame>

class QLabel;

namespace ui {

// The summary over the tables after a list is loaded: how many URLs, duplicates and invalid lines
// (the first few named, all of them in the tooltip).
class LoadSummaryBanner : public QFrame {
    Q_OBJECT
public:
    explicit LoadSummaryBanner(QWidget *parent = nullptr);

    void showReading(const QString &listName);
    void showScan(const QString &listName, const crawl::UrlListScan &scan);
    // Picks its colours for the application's palette (light or dark). A style sheet pins a widget's own
    // palette, so a theme change does not always reach it as an event: the window calls this too.
    void applyPalette();

protected:
    void changeEvent(QEvent *event) override;

private:
    QLabel *m_text;
};

} // namespace ui
