#pragma once

#include "settings/recentlists.h"

#include <QMenu>

namespace ui {

// File > Open Recent: the lists opened last, newest first, kept in the settings. Filled each time it
// opens: a file deleted or moved since shows greyed out ("(missing)") until "Remove Missing Files".
class RecentMenu : public QMenu {
    Q_OBJECT
public:
    explicit RecentMenu(QWidget *parent = nullptr);
    // Another recent list under its own settings key (File > Recent Crawls).
    struct Texts {
        QString title;
        QString settingsKey;
        QString empty; // "No recent lists"
        QString clear; // "Clear Recent Lists"
    };
    RecentMenu(const Texts &texts, QWidget *parent);

    void add(const QString &path);                       // and saves
    void setOpenEnabled(bool on) { m_openEnabled = on; } // no opening while a crawl runs
    const RecentLists &lists() const { return m_lists; }

Q_SIGNALS:
    void openRequested(const QString &path);

private:
    void fill();
    void save() const;

    QString m_emptyText;
    QString m_clearText;
    RecentLists m_lists;
    bool m_openEnabled = true;
};

} // namespace ui
