#pragma once

#include <QWidget>

class QAction;
class QPushButton;

namespace ui {

// What the window shows before any list is loaded: what to do first (open a list, drop a file, paste
// URLs, or try the demo), each one button away.
class EmptyState : public QWidget {
    Q_OBJECT
public:
    EmptyState(QAction *open, QAction *paste, QWidget *parent = nullptr);

    void setDemoAvailable(bool available); // the demo button shows only when the app can run it
    QPushButton *demoButton() const { return m_demo; }

Q_SIGNALS:
    void demoRequested();

private:
    QPushButton *m_demo;
};

} // namespace ui
