// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <functional>

namespace la {

// What a recording says as it goes: its steps ("connecting", …) and its notes, each passed on as it
// comes. The notes are also kept, so that "recorded", the window and a session show them too.
class RecordingLog {
public:
    using Say = std::function<void(const QString&)>;

    RecordingLog(Say step, Say note) : m_step(std::move(step)), m_note(std::move(note)) {}

    void step(const QString& text) const {
        if (m_step)
            m_step(text);
    }
    void note(const QString& text) {
        m_notes << text;
        if (m_note)
            m_note(text);
    }
    const QStringList& notes() const { return m_notes; }

private:
    Say m_step;
    Say m_note;
    QStringList m_notes;
};

} // namespace la
