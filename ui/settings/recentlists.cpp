#include "settings/recentlists.h"

#include <QFileInfo>
#include <QSettings>

namespace ui {

namespace {

QString canonical(const QString &path) {
    return QFileInfo(path).absoluteFilePath();
}

} // namespace

void RecentLists::add(const QString &path) {
    const QString absolute = canonical(path);
    m_paths.removeAll(absolute);
    m_paths.prepend(absolute);
    while (m_paths.size() > kMax)
        m_paths.removeLast();
}

void RecentLists::remove(const QString &path) {
    m_paths.removeAll(canonical(path));
}

void RecentLists::removeMissing() {
    m_paths.removeIf([](const QString &path) { return !QFileInfo(path).isFile(); });
}

void RecentLists::load(const QSettings &settings) {
    m_paths.clear();
    const QStringList stored = settings.value(m_key).toStringList();
    // A settings file edited by hand may hold anything: keep what looks like a path, newest first.
    for (const QString &path : stored) {
        if (!path.isEmpty() && m_paths.size() < kMax && !m_paths.contains(canonical(path)))
            m_paths.append(canonical(path));
    }
}

void RecentLists::save(QSettings &settings) const {
    settings.setValue(m_key, m_paths);
}

} // namespace ui
