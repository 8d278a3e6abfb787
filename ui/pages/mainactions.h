#pragma once

#include <QObject>

class QAction;
class QMainWindow;
class QMenu;

namespace ui {

// The window's commands (shortcuts, tooltips, icons) and the File and Crawl menus and the toolbar that
// offer them. The window connects each action to what it does and enables them as the crawl goes.
class MainActions : public QObject {
    Q_OBJECT
public:
    explicit MainActions(QMainWindow *window);

    // The File and Crawl menus and the main toolbar (call before the View and Help menus).
    void addMenusAndToolBar(QMainWindow *window);
    void setPauseShowsResume(bool paused); // Pause becomes Resume while paused

    QMenu *fileMenu() const { return m_fileMenu; }

    QAction *open = nullptr;
    QAction *paste = nullptr;
    QAction *start = nullptr;
    QAction *pause = nullptr;
    QAction *stop = nullptr;
    QAction *retry = nullptr; // transient failures
    QAction *retryAll = nullptr;
    QAction *retrySelected = nullptr;
    QAction *exportView = nullptr;
    QAction *exportAll = nullptr;
    QAction *exportFailures = nullptr;
    QAction *quit = nullptr;
    QAction *about = nullptr;

private:
    QMenu *m_fileMenu = nullptr;
    bool m_pauseShowsResume = false;
};

} // namespace ui
