#include "pages/recentmenu.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace ui {

RecentMenu::RecentMenu(QWidget *parent)
    : RecentMenu(Texts{tr("Open &Recent"), QStringLiteral("recent/lists"), tr("No recent lists"),
                       tr("Clear Recent Lists")},
                 parent) {
    setObjectName(QStringLiteral("recentMenu"));
}

RecentMenu::RecentMenu(const Texts &texts, QWidget *parent)
    : QMenu(texts.title, parent)
    , m_emptyText(texts.empty)
    , m_clearText(texts.clear)
    , m_lists(texts.settingsKey) {
    QSettings settings;
    m_lists.load(settings);
    connect(this, &QMenu::aboutToShow, this, &RecentMenu::fill);
}

void RecentMenu::add(const QString &path) {
    m_lists.add(path);
    save();
}

void RecentMenu::save() const {
    QSettings settings;
    m_lists.save(settings);
}

void RecentMenu::fill() {
    clear();
    const QStringList paths = m_lists.paths();
    bool anyMissing = false;
    for (int i = 0; i < paths.size(); ++i) {
        const QFileInfo info(paths[i]);
        const bool missing = !info.isFile();
        anyMissing = anyMissing || missing;
        // "&1 urls.txt  —  /home/me/lists"; a file gone since shows greyed out.
        QString text = tr("%1%2  —  %3")
                           .arg(i < 9 ? QStringLiteral("&%1 ").arg(i + 1) : QString(), info.fileName(),
                                QDir::toNativeSeparators(info.absolutePath()));
        if (missing)
            text += tr("  (missing)");
        QAction *open = addAction(text);
        open->setData(paths[i]);
        open->setEnabled(!missing && m_openEnabled);
        connect(open, &QAction::triggered, this, [this, path = paths[i]] { Q_EMIT openRequested(path); });
    }
    if (paths.isEmpty())
        addAction(m_emptyText)->setEnabled(false);
    addSeparator();
    QAction *removeMissing = addAction(tr("Remove Missing Files"));
    removeMissing->setObjectName(QStringLiteral("recentRemoveMissing"));
    removeMissing->setEnabled(anyMissing);
    connect(removeMissing, &QAction::triggered, this, [this] {
        m_lists.removeMissing();
        save();
    });
    QAction *clearAll = addAction(m_clearText);
    clearAll->setEnabled(!paths.isEmpty());
    connect(clearAll, &QAction::triggered, this, [this] {
        m_lists.clear();
        save();
    });
}

} // namespace ui
