// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/work_file.h"

#include "files/held_directory.h"

namespace la {

QString writeWorkFile(const HeldDirectory& work, const char* name, const QString& what,
                      const QByteArray& bytes) {
    asRecordError([&] {
        OutputFile file(work, name, what.toStdString());
        file.write(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        file.commit();
    });
    return QString::fromStdString(work.filePath(name));
}

} // namespace la
