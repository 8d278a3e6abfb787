#include "pages/crawlruleseditor.h"

#include "dialogs/crawlrulesdialog.h"

#include <QAction>
#include <QSettings>
#include <QWidget>

namespace ui {

CrawlRulesEditor::CrawlRulesEditor(QWidget *window)
    : QObject(window)
    , m_window(window)
    , m_action(new QAction(tr("Crawl &Rules…"), this)) {
    m_action->setObjectName(QStringLiteral("crawlRules"));
    m_action->setToolTip(tr("robots.txt, scope (include, exclude, allowed hosts) and acceptance checks for "
                            "the crawls started here"));
    m_action->setStatusTip(m_action->toolTip());
    connect(m_action, &QAction::triggered, this, &CrawlRulesEditor::edit);
    QSettings settings;
    m_rules = loadCrawlRules(settings);
}

CrawlRulesParse CrawlRulesEditor::quality() const {
    if (m_session) {
        CrawlRulesParse parse;
        parse.quality = *m_session;
        return parse;
    }
    return parseCrawlRules(m_rules);
}

void CrawlRulesEditor::setSessionQuality(const crawl::CrawlQuality &quality) {
    m_session = quality;
    Q_EMIT rulesChanged();
}

void CrawlRulesEditor::setRules(const CrawlRules &rules) {
    m_session.reset(); // what the user chose here wins over the command line's rules
    m_rules = rules;
    QSettings settings;
    saveCrawlRules(settings, m_rules);
    Q_EMIT rulesChanged();
}

void CrawlRulesEditor::edit() {
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    m_dialog = new CrawlRulesDialog(m_rules, m_window);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (m_session)
        m_dialog->setNote(tr("This session crawls with the rules given on the command line. OK replaces "
                             "them with the rules below."));
    connect(m_dialog, &QDialog::accepted, this, [this] {
        if (m_dialog)
            setRules(m_dialog->rules());
    });
    m_dialog->open();
}

} // namespace ui
