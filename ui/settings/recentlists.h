#pragma once

#include <QString>
#include <QStringList>

class QSettings;

namespace ui {

// File > Open Recent: the lists opened last, newest first, at most kMax, each once (by absolute path).
class RecentLists {
public:
    static constexpr int kMax = 10;

    // The settings key the list is kept under (the lists' default; the recent crawls have their own).
    explicit RecentLists(const QString &settingsKey = QStringLiteral("recent/lists"))
        : m_key(settingsKey) {}

    void add(const QString &path);
    void remove(const QString &path);
    void removeMissing(); // files deleted or moved since
    void clear() { m_paths.clear(); }
    const QStringList &paths() const { return m_paths; }

    void load(const QSettings &settings);
    void save(QSettings &settings) const;

private:
    QString m_key;
    QStringList m_paths;
};

} // namespace ui
