using System.Diagnostics;

namespace Harness.LoadTests.Tests;

/// <summary>A small RAM file system mounted for one test (Linux, as root): a disk that fills up for real.</summary>
internal sealed class Tmpfs : IDisposable
{
    private static readonly Lazy<string?> WhyNot = new(ProbeMount);

    private Tmpfs(string path) => Path = path;

    public string Path { get; }

    /// <summary>Null when a tmpfs can be mounted here; else why not, for the skip message.</summary>
    public static string? CannotMount => WhyNot.Value;

    /// <param name="size">As mount's <c>size=</c>: <c>200k</c>, <c>1m</c>.</param>
    public static Tmpfs Mount(string size)
    {
        var path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "harness-tmpfs-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(path);
        var (exitCode, output) = Run("mount", "-t", "tmpfs", "-o", $"size={size}", "tmpfs", path);
        if (exitCode != 0)
        {
            Directory.Delete(path);
            throw new InvalidOperationException($"mount -t tmpfs failed: {output}");
        }

        return new Tmpfs(path);
    }

    /// <summary>Fills what is left: writes until the file system refuses. Returns the bytes written.</summary>
    public long Fill()
    {
        long written = 0;
        using var filler = new FileStream(System.IO.Path.Combine(Path, "filler"), FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 0);
        var block = new byte[4096];
        for (var i = 0; i < 1_000_000; i++)
        {
            try
            {
                filler.Write(block);
                written += block.Length;
            }
            catch (IOException)
            {
                return written;
            }
        }

        throw new InvalidOperationException($"{Path} took {written} bytes and is still not full.");
    }

    public void Dispose()
    {
        // Lazily, in case a child process still holds a file open in it.
        Run("umount", "-l", Path);
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
        }
    }

    private static string? ProbeMount()
    {
        if (!OperatingSystem.IsLinux())
        {
            return "a tmpfs is a Linux file system";
        }

        try
        {
            using var probe = Mount("64k");
            return null;
        }
        catch (Exception ex) when (ex is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return $"mounting a tmpfs is not permitted here (it needs root or CAP_SYS_ADMIN): {ex.Message}";
        }
    }

    private static (int ExitCode, string Output) Run(string file, params string[] args)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEnd() + process.StandardError.ReadToEnd();
        if (!process.WaitForExit(TimeSpan.FromSeconds(30)))
        {
            process.Kill();
            return (-1, $"{file} did not finish within 30 s");
        }

        return (process.ExitCode, output.Trim());
    }
}

/// <summary>A test that needs <see cref="Tmpfs"/>: skipped, saying why, where mounting is not permitted.</summary>
internal sealed class TmpfsFactAttribute : FactAttribute
{
    public TmpfsFactAttribute()
    {
        if (Tmpfs.CannotMount is { } reason)
        {
            Skip = reason;
        }
    }
}
