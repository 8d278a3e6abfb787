#pragma once

#include "dialogs/crawlrulesdialog.h"
#include "settings/crawlrules.h"

#include <QObject>
#include <QPointer>

#include <optional>

class QAction;
class QWidget;

namespace ui {

// Owns the window's crawl rules: the "Crawl Rules…" action, the dialog it opens, and the rules as saved
// in QSettings. The window asks quality() when it starts a crawl.
class CrawlRulesEditor : public QObject {
    Q_OBJECT
public:
    explicit CrawlRulesEditor(QWidget *window);

    QAction *action() const { return m_action; }
    const CrawlRules &rules() const { return m_rules; }
    void setRules(const CrawlRules &rules); // and saves them
    // What the engine gets; an error (rules saved by hand in the settings file, say) names the field.
    CrawlRulesParse quality() const;
    // The command line's rules (`crawlscope urls.txt --exclude …`): they apply instead of the saved ones
    // until the user presses OK in the dialog, and are never saved.
    void setSessionQuality(const crawl::CrawlQuality &quality);
    bool hasSessionQuality() const { return m_session.has_value(); }
    // Opens the dialog (window-modal; OK saves the rules); the open dialog, null when none is open.
    void edit();
    CrawlRulesDialog *dialog() const { return m_dialog; }

Q_SIGNALS:
    void rulesChanged();

private:
    QWidget *m_window;
    QAction *m_action;
    CrawlRules m_rules;
    std::optional<crawl::CrawlQuality> m_session;
    QPointer<CrawlRulesDialog> m_dialog;
};

} // namespace ui
