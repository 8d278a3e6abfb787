#pragma once

#include "settings/windowtheme.h"

#include <QMenu>

class QAction;

namespace ui {

// View > Theme: System (the desktop's palette), Light or Dark for the whole application, remembered in
// the settings. Widgets that draw their own colours (the charts) follow the palette change.
class ThemeMenu : public QMenu {
    Q_OBJECT
public:
    explicit ThemeMenu(QWidget *parent = nullptr);

    WindowTheme theme() const { return m_theme; }
    void setTheme(WindowTheme theme); // applies and saves
    QAction *actionFor(WindowTheme theme) const;

Q_SIGNALS:
    void themeChanged(WindowTheme theme);

private:
    void apply(WindowTheme theme);

    WindowTheme m_theme = WindowTheme::System;
    QAction *m_system;
    QAction *m_light;
    QAction *m_dark;
};

} // namespace ui
