#include "pages/loadsummarybanner.h"

#include "settings/windowtheme.h"

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QToolButton>

namespace ui {

namespace {

QString number(qint64 n) {
    return QLocale().toString(n);
}

} // namespace

LoadSummaryBanner::LoadSummaryBanner(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel(this)) {
    setObjectName(QStringLiteral("loadSummary"));
    applyPalette();
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Hide this summary"));
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    layout->addWidget(m_text, 1);
    layout->addWidget(close, 0, Qt::AlignTop);
    hide();
}

void LoadSummaryBanner::changeEvent(QEvent *event) {
    QFrame::changeEvent(event);
    // A widget with a style sheet keeps its own palette: the application's change arrives as its own event.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        applyPalette();
}

void LoadSummaryBanner::applyPalette() {
    // A pale blue note on a light window, a deep blue one on a dark window.
    const bool dark = isDarkPalette(QApplication::palette());
    const QString sheet =
        dark ? QStringLiteral("#loadSummary { background: #1d2a3a; border: 1px solid #35506e; "
                              "border-radius: 3px; }")
             : QStringLiteral("#loadSummary { background: #eef4fb; border: 1px solid #b9d0ea; "
                              "border-radius: 3px; }");
    if (styleSheet() != sheet) // a style sheet change can itself send a palette change
        setStyleSheet(sheet);
}

void LoadSummaryBanner::showReading(const QString &listName) {
    m_text->setText(tr("Reading <b>%1</b>…").arg(listName.toHtmlEscaped()));
    show();
}

void LoadSummaryBanner::showScan(const QString &listName, const crawl::UrlListScan &scan) {
    QString text = tr("<b>%1</b>: %2 URLs to crawl").arg(listName.toHtmlEscaped(), number(scan.valid));
    if (scan.duplicates > 0)
        text += tr(" · %1 duplicates (crawled once)").arg(number(scan.duplicates));
    if (scan.invalid > 0) {
        text += tr(" · <span style='color:#b3261e'>%1 invalid</span>").arg(number(scan.invalid));
        QStringList first;
        QStringList all;
        for (const crawl::InputLine &line : scan.firstInvalid) {
            const QString entry = tr("line %1: %2").arg(line.lineNumber).arg(line.normalized.error);
            if (first.size() < 3)
                first.append(entry.toHtmlEscaped());
            all.append(entry + QStringLiteral(" — ") + line.raw);
        }
        if (!first.isEmpty())
            text += QStringLiteral(" (") + first.join(QStringLiteral("; ")) +
                    (scan.invalid > first.size() ? QStringLiteral("; …)") : QStringLiteral(")"));
        m_text->setToolTip(all.join(QLatin1Char('\n')));
        text += tr(". Invalid lines are listed among the results as <i>invalid_url</i>.");
    } else {
        m_text->setToolTip({});
    }
    m_text->setText(text);
    show();
}

} // namespace ui
