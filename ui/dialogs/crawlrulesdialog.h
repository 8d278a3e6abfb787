#pragma once

#include "settings/crawlrules.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QWidget;

namespace ui {

// Crawl > Crawl Rules: robots.txt, scope and acceptance checks for the crawls the window starts. Every
// edit is checked at once (parseCrawlRules); an error shows under the fields, names the field and line,
// and keeps OK disabled: a bad expression is never silently dropped.
class CrawlRulesDialog : public QDialog {
    Q_OBJECT
public:
    explicit CrawlRulesDialog(const CrawlRules &rules, QWidget *parent = nullptr);

    CrawlRules rules() const;
    QString errorText() const;         // empty while every field is valid
    void setNote(const QString &text); // shown above the fields

private:
    void validate();
    QWidget *fieldWidget(CrawlRulesField field) const;

    QComboBox *m_robots;
    QLineEdit *m_robotsAgent;
    QCheckBox *m_ignoreCrawlDelay;
    QPlainTextEdit *m_include;
    QPlainTextEdit *m_exclude;
    QPlainTextEdit *m_allowedHosts;
    QLineEdit *m_expectStatus;
    QLineEdit *m_expectType;
    QLineEdit *m_expectText;
    QLineEdit *m_expectRegex;
    QCheckBox *m_expectTitle;
    QSpinBox *m_minBytes;
    QComboBox *m_soft404;
    QLabel *m_note;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

} // namespace ui
