using System.Globalization;

namespace Harness.KubeletStandIn.Runtime;

/// <summary>
/// The run's console: one timestamped line per event on stdout, errors on stderr. Plain text, no colours, so a log
/// file and a terminal read the same; every line is written whole under a lock (pods log from many tasks).
/// </summary>
internal sealed class RunLog
{
    private readonly Lock _lock = new();

    public void Line(string message) => Write(Console.Out, message);

    public void Error(string message) => Write(Console.Error, "error: " + message);

    public void Warning(string message) => Write(Console.Error, "warning: " + message);

    private void Write(TextWriter writer, string message)
    {
        var line = DateTime.Now.ToString("HH:mm:ss", CultureInfo.InvariantCulture) + " " + message;
        lock (_lock)
        {
            writer.WriteLine(line);
            writer.Flush();
        }
    }
}
