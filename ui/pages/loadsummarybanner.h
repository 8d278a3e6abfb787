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

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();

    QLabel *m_text;
};

} // namespace ui
