using System.Net.Sockets;
using System.Text;
using Microsoft.Extensions.Options;

namespace Harness.ServiceDefaults;

/// <summary>
/// <c>Listen__UnixSocket</c>: what a path must be before Kestrel may bind it, and the stale socket file a service that
/// was killed leaves behind, which would otherwise fail the bind with "address already in use".
/// </summary>
internal static class UnixSocketPath
{
    /// <summary>sun_path holds 108 bytes on Linux, the terminating NUL included.</summary>
    public const int MaxBytes = 107;

    private const string Variable = "Listen__UnixSocket";

    /// <summary>The path's own faults, found without touching the file system beyond its folder.</summary>
    public static IEnumerable<string> Check(string path)
    {
        if (!Path.IsPathFullyQualified(path))
        {
            yield return $"{Variable} must be an absolute path such as /tmp/harness-grpc.sock; got '{path}'.";
            yield break;
        }

        var bytes = Encoding.UTF8.GetByteCount(path);
        if (bytes > MaxBytes)
        {
            yield return $"{Variable} may be at most {MaxBytes} bytes long (a socket address's sun_path); got {bytes}: '{path}'.";
        }

        var folder = Path.GetDirectoryName(path);
        if (string.IsNullOrEmpty(folder) || !Directory.Exists(folder))
        {
            yield return $"{Variable}'s folder '{folder}' does not exist; got '{path}'.";
        }
        else if (Directory.Exists(path))
        {
            yield return $"{Variable} '{path}' is a folder; name a socket file inside it.";
        }
    }

    /// <summary>
    /// Deletes a socket file nobody listens on (a previous service killed before it could remove it). A regular file
    /// at the path, or a socket a live process accepts on, is not ours to delete: the start fails naming the variable.
    /// </summary>
    /// <exception cref="OptionsValidationException">The path holds something other than a stale socket.</exception>
    public static void ClearStale(string path)
    {
        if (!File.Exists(path))
        {
            return;
        }

        if (!IsSocket(path))
        {
            throw Invalid($"{Variable} '{path}' exists and is not a socket; remove it or choose another path.");
        }

        using var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            probe.Connect(new UnixDomainSocketEndPoint(path));
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionRefused)
        {
            // Nobody accepts on it: left over.
            File.Delete(path);
            return;
        }

        throw Invalid($"{Variable} '{path}': another process is listening on this socket; stop it or choose another path.");
    }

    // open(2) of a socket fails with ENXIO ("No such device or address"), which .NET reports as a plain IOException;
    // a regular file opens. .NET has no lstat that gives the file type.
    private static bool IsSocket(string path)
    {
        try
        {
            using var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
            return false;
        }
        catch (IOException ex) when (ex is not FileNotFoundException and not DirectoryNotFoundException)
        {
            return true;
        }
        catch (UnauthorizedAccessException)
        {
            return false;
        }
    }

    private static OptionsValidationException Invalid(string failure) =>
        new(Options.DefaultName, typeof(ListenOptions), [failure]);
}
