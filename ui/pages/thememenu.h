#pragma once

#include "settings/windowtheme.h"

#include <QMenu>
#include <QTimer>

class QAction;

namespace ui {

// View > Theme: System (the desktop's palette), Light or Dark for the whole application, remembered in
// the settings. Widgets that draw their own colours (the charts) follow the palette change. In System,
// a change of the desktop's colour scheme while the window is open is followed too.
class ThemeMenu : public QMenu {
    Q_OBJECT
public:
    explicit ThemeMenu(QWidget *parent = nullptr);

    WindowTheme theme() const { return m_theme; }
    void setTheme(WindowTheme theme); // applies and saves
    QAction *actionFor(WindowTheme theme) const;

Q_SIGNALS:
    void themeChanged(WindowTheme theme);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void apply(WindowTheme theme);

    WindowTheme m_theme = WindowTheme::System;
    QAction *m_system;
    QAction *m_light;
    QAction *m_dark;
    QTimer m_followDesktop;
};

} // namespace ui
