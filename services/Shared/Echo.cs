using System.Diagnostics.CodeAnalysis;

namespace Harness.Text;

/// <summary>
/// Cuts a value the client sent before a service repeats it in a status message, a fault or a log line. A status
/// message travels in a response header (gRPC's <c>grpc-message</c> trailer): a 66,000-character argument echoed whole
/// passed HTTP/2's usual 64 KiB header limit, and the client lost the connection, not only the call.
/// A source file linked into each project that repeats a client's text (grpc-dotnet's src/Shared model), internal
/// in each, rather than a package of its own for thirty lines.
/// </summary>
internal static class Echo
{
    /// <summary>The most characters of a client's value that are repeated; a name, a number or an address fits.</summary>
    public const int MaxChars = 256;

    /// <summary>
    /// <paramref name="value"/> itself when it has at most <see cref="MaxChars"/> characters; otherwise its first
    /// <see cref="MaxChars"/> (never half of a surrogate pair) and a marker saying how long it was,
    /// <c>…(cut, 100000 chars)</c>. Null stays null.
    /// </summary>
    [return: NotNullIfNotNull(nameof(value))]
    public static string? Bounded(string? value)
    {
        if (value is null || value.Length <= MaxChars)
        {
            return value;
        }

        int keep = char.IsHighSurrogate(value[MaxChars - 1]) ? MaxChars - 1 : MaxChars;
        return string.Concat(value.AsSpan(0, keep), $"…(cut, {value.Length} chars)");
    }
}
