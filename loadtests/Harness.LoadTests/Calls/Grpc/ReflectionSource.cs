using Google.Protobuf;
using Grpc.Core;
using Grpc.Reflection.V1;

namespace Harness.LoadTests.Calls.Grpc;

/// <summary>
/// A method's descriptors from the server's reflection service: <c>grpc.reflection.v1</c>, else <c>v1alpha</c> (older
/// servers have only that). The two versions' messages are the same on the wire, so v1's generated messages serve
/// both; only the service name differs. One stream: the services it lists, the file defining the service, then each
/// import it lacks (bounded: a server that keeps naming new files cannot hold the run).
/// </summary>
internal static class ReflectionSource
{
    private const string V1 = "grpc.reflection.v1";
    private const string V1Alpha = "grpc.reflection.v1alpha";
    private const int MaxFiles = 500;
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(15);

    /// <exception cref="CallSetupException">
    /// No reflection (or it cannot be reached): the message says to give <c>--proto</c>. An unknown service: it lists
    /// those the reflection knows. An unknown method: <see cref="GrpcMethod.Find"/>.
    /// </exception>
    public static async Task<GrpcMethod> FindAsync(CallInvoker invoker, Uri address, string call, Metadata headers, CancellationToken cancellationToken)
    {
        var (serviceName, _) = GrpcMethod.Split(call);
        foreach (var version in (string[])[V1, V1Alpha])
        {
            try
            {
                var (files, services) = await FetchAsync(invoker, version, serviceName, headers, cancellationToken);
                if (files is null)
                {
                    throw new CallSetupException(
                        $"--call '{call}': the server's reflection knows no service {serviceName}; it lists {(services.Count == 0 ? "none" : string.Join(", ", services))}.");
                }

                return GrpcMethod.Find(files, call, $"the server's reflection ({version})");
            }
            catch (RpcException ex) when (ex.StatusCode == StatusCode.Unimplemented && version == V1)
            {
                // An older server: try v1alpha.
            }
            catch (RpcException ex) when (!cancellationToken.IsCancellationRequested)
            {
                var why = ex.StatusCode switch
                {
                    StatusCode.Unimplemented => $"has no reflection service ({V1} and {V1Alpha} answer UNIMPLEMENTED)",
                    StatusCode.DeadlineExceeded => $"did not answer its reflection service within {Bound.TotalSeconds:0} s",
                    _ => $"could not be asked for its reflection ({ex.StatusCode}: {ex.Status.Detail})",
                };
                throw new CallSetupException($"--call '{call}': {address} {why}; give --proto FILE (or --protoset FILE) to describe the service.", ex);
            }
        }

        throw new InvalidOperationException("unreachable: v1alpha either returns or throws");
    }

    /// <returns>The files (null when the reflection does not know the service) and the services it lists.</returns>
    private static async Task<(IReadOnlyList<ByteString>? Files, IReadOnlyList<string> Services)> FetchAsync(
        CallInvoker invoker, string version, string serviceName, Metadata headers, CancellationToken cancellationToken)
    {
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bounded.CancelAfter(Bound);
        var method = new Method<ServerReflectionRequest, ServerReflectionResponse>(
            MethodType.DuplexStreaming,
            version + ".ServerReflection",
            "ServerReflectionInfo",
            Marshallers.Create(r => r.ToByteArray(), ServerReflectionRequest.Parser.ParseFrom),
            Marshallers.Create(r => r.ToByteArray(), ServerReflectionResponse.Parser.ParseFrom));
        using var stream = invoker.AsyncDuplexStreamingCall(method, null, new CallOptions(headers, cancellationToken: bounded.Token));

        async Task<ServerReflectionResponse> AskAsync(ServerReflectionRequest request)
        {
            try
            {
                await stream.RequestStream.WriteAsync(request, bounded.Token);
            }
            catch (Exception ex) when (ex is RpcException or InvalidOperationException or IOException)
            {
                // A server without the service ends the call at once (UNIMPLEMENTED, trailers only), which can fail
                // the write as CANCELLED before that status arrives (1 call in 25 against grpc-js): the response
                // has the real status, and reading it throws it.
                await stream.ResponseStream.MoveNext(bounded.Token);
                throw;
            }

            return await stream.ResponseStream.MoveNext(bounded.Token)
                ? stream.ResponseStream.Current
                : throw new RpcException(new Status(StatusCode.Unavailable, "the reflection stream ended before its answer"));
        }

        try
        {
            var listed = await AskAsync(new ServerReflectionRequest { ListServices = "" });
            var services = listed.ListServicesResponse?.Service.Select(s => s.Name).ToList() ?? [];
            var found = await AskAsync(new ServerReflectionRequest { FileContainingSymbol = serviceName });
            if (found.FileDescriptorResponse is not { } first)
            {
                return (null, services);
            }

            var files = new Dictionary<string, ByteString>(StringComparer.Ordinal);
            Add(files, first);
            for (var missing = Missing(files); missing is not null && files.Count < MaxFiles; missing = Missing(files))
            {
                var answer = await AskAsync(new ServerReflectionRequest { FileByFilename = missing });

                // A file the server cannot give is left for GrpcMethod.Find to name as the missing import.
                if (answer.FileDescriptorResponse is not { } more || !Add(files, more))
                {
                    break;
                }
            }

            await stream.RequestStream.CompleteAsync();
            return ([.. files.Values], services);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new RpcException(new Status(StatusCode.DeadlineExceeded, $"no answer within {Bound.TotalSeconds:0} s"));
        }
    }

    /// <summary>Adds the response's files; false when it held none that were new.</summary>
    private static bool Add(Dictionary<string, ByteString> files, FileDescriptorResponse response)
    {
        var added = false;
        foreach (var bytes in response.FileDescriptorProto)
        {
            added |= files.TryAdd(Google.Protobuf.Reflection.FileDescriptorProto.Parser.ParseFrom(bytes).Name, bytes);
        }

        return added;
    }

    /// <summary>An import that none of the files is, or null when every import is there.</summary>
    private static string? Missing(Dictionary<string, ByteString> files) =>
        files.Values.SelectMany(b => Google.Protobuf.Reflection.FileDescriptorProto.Parser.ParseFrom(b).Dependency).FirstOrDefault(d => !files.ContainsKey(d));
}
