using System.Diagnostics;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>
/// A method's descriptors from files, for a server without reflection: <c>--protoset</c> (a <c>FileDescriptorSet</c>,
/// as <c>protoc --include_imports --descriptor_set_out</c> writes), or <c>--proto</c>, which this compiles to one
/// with the <c>protoc</c> that Grpc.Tools ships (copied beside the runner at build time, with the well-known types'
/// .proto files, so a proto importing <c>google/protobuf/timestamp.proto</c> compiles as it would in a project).
/// </summary>
internal static class ProtoFiles
{
    private static readonly TimeSpan ProtocBound = TimeSpan.FromSeconds(60);

    /// <summary>Where the runner's build put protoc and the well-known types' .proto files.</summary>
    public static string ToolFolder => Path.Combine(AppContext.BaseDirectory, "protoc");

    /// <exception cref="CallSetupException">The file cannot be read or is no descriptor set, or the method is not in it.</exception>
    public static GrpcMethod FromProtoset(string path, string call)
    {
        FileDescriptorSet set;
        try
        {
            set = FileDescriptorSet.Parser.ParseFrom(File.ReadAllBytes(path));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidProtocolBufferException)
        {
            throw new CallSetupException($"--protoset {path}: cannot be read as a descriptor set ({ex.Message}); write one with protoc --include_imports --descriptor_set_out=FILE.", ex);
        }

        return GrpcMethod.Find(set.File.Select(f => f.ToByteString()), call, $"--protoset {path}");
    }

    /// <param name="importPaths">Where imports are looked up (<c>--import-path</c>); none: the proto file's own folder.</param>
    /// <exception cref="CallSetupException">protoc is missing or refuses the file (its first error is quoted), or the method is not in it.</exception>
    public static async Task<GrpcMethod> FromProtoAsync(string path, IReadOnlyList<string> importPaths, string call, CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
        {
            throw new CallSetupException($"--proto {path}: no such file.");
        }

        var output = Path.Combine(Path.GetTempPath(), $"harness-{Guid.NewGuid():N}.protoset");
        try
        {
            var start = new ProcessStartInfo(Protoc()) { RedirectStandardError = true, RedirectStandardOutput = true };
            var roots = importPaths.Count > 0 ? importPaths : [Path.GetDirectoryName(Path.GetFullPath(path))!];
            foreach (var root in roots)
            {
                start.ArgumentList.Add($"--proto_path={root}");
            }

            var include = Path.Combine(ToolFolder, "include");
            if (Directory.Exists(include))
            {
                start.ArgumentList.Add($"--proto_path={include}");
            }

            start.ArgumentList.Add("--include_imports");
            start.ArgumentList.Add($"--descriptor_set_out={output}");
            start.ArgumentList.Add(importPaths.Count > 0 ? path : Path.GetFileName(path));
            if (importPaths.Count == 0)
            {
                start.WorkingDirectory = roots[0];
            }

            var (exit, _, errors) = await RunAsync(start, null, cancellationToken);
            if (exit != 0)
            {
                var first = errors.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault() ?? $"exit code {exit}";
                throw new CallSetupException($"--proto {path}: protoc refused it: {first}");
            }

            var set = FileDescriptorSet.Parser.ParseFrom(await File.ReadAllBytesAsync(output, cancellationToken));
            return GrpcMethod.Find(set.File.Select(f => f.ToByteString()), call, $"--proto {path}");
        }
        finally
        {
            File.Delete(output);
        }
    }

    /// <summary>The reply in protobuf's text format, decoded by protoc with the method's descriptors (<c>--show-reply</c>).</summary>
    /// <returns>The text, or why it could not be decoded.</returns>
    public static async Task<string> DecodeAsync(GrpcMethod method, byte[] reply, CancellationToken cancellationToken)
    {
        var set = Path.Combine(Path.GetTempPath(), $"harness-{Guid.NewGuid():N}.protoset");
        try
        {
            var descriptors = new FileDescriptorSet();
            descriptors.File.AddRange(method.Files.Select(FileDescriptorProto.Parser.ParseFrom).Select(WithoutMapEntryFlags));
            await File.WriteAllBytesAsync(set, descriptors.ToByteArray(), cancellationToken);
            var start = new ProcessStartInfo(Protoc()) { RedirectStandardError = true, RedirectStandardOutput = true };
            start.ArgumentList.Add($"--decode={method.Output.FullName}");
            start.ArgumentList.Add($"--descriptor_set_in={set}");
            var (exit, text, errors) = await RunAsync(start, reply, cancellationToken);
            return exit == 0 ? text.TrimEnd() : $"({reply.Length} bytes that protoc could not decode: {errors.Trim()})";
        }
        catch (CallSetupException ex)
        {
            return $"({reply.Length} bytes, not decoded: {ex.Message})";
        }
        finally
        {
            File.Delete(set);
        }
    }

    /// <summary>
    /// The file with its map entries' <c>map_entry</c> option cleared. protoc refuses a descriptor set whose map entry
    /// is not exactly as its own compiler writes one ("map_entry should not be set explicitly"), and a server's
    /// reflection need not write it so: @grpc/reflection's, built from protobuf.js, does not. The text format writes a
    /// map as its repeated entries either way, so the decoded reply reads the same.
    /// </summary>
    private static FileDescriptorProto WithoutMapEntryFlags(FileDescriptorProto file)
    {
        static void Clear(IEnumerable<DescriptorProto> messages)
        {
            foreach (var message in messages)
            {
                message.Options?.ClearMapEntry();
                Clear(message.NestedType);
            }
        }

        Clear(file.MessageType);
        return file;
    }

    /// <summary>The shipped protoc, else one on PATH.</summary>
    private static string Protoc()
    {
        var shipped = Path.Combine(ToolFolder, OperatingSystem.IsWindows() ? "protoc.exe" : "protoc");
        if (!File.Exists(shipped))
        {
            return "protoc";
        }

        // A copy may lose its execute bit (a zip, some copy tools); the runner's own file can take it back.
        if (!OperatingSystem.IsWindows() && !File.GetUnixFileMode(shipped).HasFlag(UnixFileMode.UserExecute))
        {
            File.SetUnixFileMode(shipped, File.GetUnixFileMode(shipped) | UnixFileMode.UserExecute);
        }

        return shipped;
    }

    private static async Task<(int Exit, string Output, string Errors)> RunAsync(ProcessStartInfo start, byte[]? input, CancellationToken cancellationToken)
    {
        start.RedirectStandardInput = input is not null;
        Process process;
        try
        {
            process = Process.Start(start) ?? throw new CallSetupException("protoc did not start.");
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new CallSetupException($"--proto needs protoc, which is neither beside the runner ({ToolFolder}) nor on PATH ({ex.Message}); give --protoset FILE instead.", ex);
        }

        using (process)
        {
            using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            bounded.CancelAfter(ProtocBound);
            var errors = process.StandardError.ReadToEndAsync(bounded.Token);
            var output = process.StandardOutput.ReadToEndAsync(bounded.Token);
            try
            {
                if (input is not null)
                {
                    try
                    {
                        await process.StandardInput.BaseStream.WriteAsync(input, bounded.Token);
                        process.StandardInput.Close();
                    }
                    catch (IOException)
                    {
                        // protoc ended before it read its input (a broken pipe): its exit code and errors say why.
                    }
                }

                await process.WaitForExitAsync(bounded.Token);
                return (process.ExitCode, await output, await errors);
            }
            catch (OperationCanceledException)
            {
                process.Kill(entireProcessTree: true);
                cancellationToken.ThrowIfCancellationRequested();
                throw new CallSetupException($"protoc did not finish within {ProtocBound.TotalSeconds:0} s.");
            }
        }
    }
}
