#pragma once

#include <QStringList>

class QSettings;

namespace ui {

// File > Open Recent: the lists opened last, newest first, at most kMax, each once (by absolute path).
class RecentLists {
public:
    static constexpr int kMax = 10;

    void add(const QString &path);
    void remove(const QString &path);
    void removeMissing(); // files deleted or moved since
    void clear() { m_paths.clear(); }
    const QStringList &paths() const { return m_paths; }

    void load(const QSettings &settings);
    void save(QSettings &settings) const;

private:
    QStringList m_paths;
};

} // namespace ui
