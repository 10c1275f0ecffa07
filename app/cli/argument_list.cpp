// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/argument_list.h"

#include "input_error.h"
#include "message_text.h"

#include <utility>

namespace la {

ArgumentList::ArgumentList(std::string command, const std::vector<std::string>& args)
    : m_command(std::move(command)), m_args(args) {}

const std::string* ArgumentList::next() {
    return m_next < m_args.size() ? &m_args[m_next++] : nullptr;
}

const std::string& ArgumentList::value() {
    if (m_next >= m_args.size())
        throw InputError(joined(
            {m_command, ": ", m_args[m_next - 1], " needs a value (see lookahead ", m_command, " --help)"}));
    return m_args[m_next++];
}

const std::string* ArgumentList::moreValue() {
    return m_next < m_args.size() && !m_args[m_next].starts_with("--") ? &m_args[m_next++] : nullptr;
}

std::vector<std::string> ArgumentList::rest() const {
    return {m_args.begin() + static_cast<std::ptrdiff_t>(m_next), m_args.end()};
}

} // namespace la
