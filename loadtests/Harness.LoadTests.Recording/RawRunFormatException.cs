namespace Harness.LoadTests.Recording;

/// <summary>A raw run file that cannot be read: names the file and, for the line-per-record files, the line.</summary>
public sealed class RawRunFormatException : FormatException
{
    public RawRunFormatException(string filePath, int? line, string reason, Exception? innerException = null)
        : base(line is { } number ? $"{filePath}, line {number}: {reason}" : $"{filePath}: {reason}", innerException)
    {
        FilePath = filePath;
        Line = line;
        Reason = reason;
    }

    public string FilePath { get; }

    /// <summary>1-based line number, or null when the problem concerns the whole file.</summary>
    public int? Line { get; }

    public string Reason { get; }
}
