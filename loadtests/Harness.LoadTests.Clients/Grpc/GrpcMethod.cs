using Grpc.Core;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace Harness.LoadTests.Clients.Grpc;

/// <summary>A method as its descriptors give it: where to send, its shape (unary or streaming), and the request's and reply's types.</summary>
/// <param name="Source">Where the descriptors came from, for the report: <c>server reflection (grpc.reflection.v1)</c>, <c>--proto greeter.proto</c>.</param>
/// <param name="Files">Every file of the descriptors, its imports first: what <c>--show-reply</c> decodes the reply with.</param>
internal sealed record GrpcMethod(
    string Service, string Name, MethodType Type, MessageDescriptor Input, MessageDescriptor Output, TypeRegistry Registry, string Source, IReadOnlyList<ByteString> Files)
{
    /// <summary>True when a call writes a stream of requests (client-streaming, bidirectional): <c>--data</c> may then be an array of them.</summary>
    public bool StreamsRequests => Type is MethodType.ClientStreaming or MethodType.DuplexStreaming;

    /// <summary>The shape as the docs and the report name it: <c>unary</c>, <c>server-streaming</c>, <c>client-streaming</c>, <c>bidirectional</c>.</summary>
    public string Shape => Type switch
    {
        MethodType.ServerStreaming => "server-streaming",
        MethodType.ClientStreaming => "client-streaming",
        MethodType.DuplexStreaming => "bidirectional",
        _ => "unary",
    };

    /// <summary>Splits <c>package.Service/Method</c>.</summary>
    /// <exception cref="CallSetupException">Not of that form.</exception>
    public static (string Service, string Method) Split(string call)
    {
        var slash = call.LastIndexOf('/');
        return slash > 0 && slash < call.Length - 1 && call.IndexOf('/') == slash
            ? (call[..slash], call[(slash + 1)..])
            : throw new CallSetupException($"--call '{call}': a gRPC call is package.Service/Method, e.g. helloworld.Greeter/SayHello.");
    }

    /// <summary>Finds <paramref name="call"/> among the files of a descriptor set (serialized <c>FileDescriptorProto</c>s, in any order).</summary>
    /// <exception cref="CallSetupException">
    /// The files do not build (an import is missing), or define no such service (the message lists those they do) or
    /// method (it lists the service's methods).
    /// </exception>
    public static GrpcMethod Find(IEnumerable<ByteString> files, string call, string source)
    {
        var (serviceName, methodName) = Split(call);
        var ordered = DependenciesFirst(files, source);
        IReadOnlyList<FileDescriptor> built;
        try
        {
            built = FileDescriptor.BuildFromByteStrings(ordered);
        }
        catch (Exception ex) when (ex is DescriptorValidationException or InvalidProtocolBufferException or ArgumentException)
        {
            throw new CallSetupException($"the descriptors from {source} do not build: {ex.Message.ReplaceLineEndings(" ")}", ex);
        }

        var services = built.SelectMany(f => f.Services).ToList();
        var service = services.FirstOrDefault(s => s.FullName == serviceName)
            ?? throw new CallSetupException(
                $"--call '{call}': {source} has no service {serviceName}; it has {Listed(services.Select(s => s.FullName))}.");
        var method = service.FindMethodByName(methodName)
            ?? throw new CallSetupException(
                $"--call '{call}': {serviceName} has no method {methodName}; its methods are {Listed(service.Methods.Select(m => m.Name))}.");
        var type = (method.IsClientStreaming, method.IsServerStreaming) switch
        {
            (true, true) => MethodType.DuplexStreaming,
            (true, false) => MethodType.ClientStreaming,
            (false, true) => MethodType.ServerStreaming,
            _ => MethodType.Unary,
        };
        return new GrpcMethod(serviceName, methodName, type, method.InputType, method.OutputType, TypeRegistry.FromFiles([.. built]), source, ordered);
    }

    /// <summary>The set's files, each after the files it imports (what BuildFromByteStrings needs), duplicates dropped.</summary>
    private static IReadOnlyList<ByteString> DependenciesFirst(IEnumerable<ByteString> files, string source)
    {
        var byName = new Dictionary<string, (ByteString Bytes, FileDescriptorProto Proto)>(StringComparer.Ordinal);
        foreach (var bytes in files)
        {
            FileDescriptorProto proto;
            try
            {
                proto = FileDescriptorProto.Parser.ParseFrom(bytes);
            }
            catch (InvalidProtocolBufferException ex)
            {
                throw new CallSetupException($"{source} gave a file descriptor that does not parse ({ex.Message}).", ex);
            }

            byName.TryAdd(proto.Name, (bytes, proto));
        }

        var ordered = new List<ByteString>();
        var placed = new HashSet<string>(StringComparer.Ordinal);
        var visiting = new HashSet<string>(StringComparer.Ordinal);

        void Place(string name, string importer)
        {
            if (placed.Contains(name))
            {
                return;
            }

            if (!byName.TryGetValue(name, out var file))
            {
                throw new CallSetupException($"{importer} imports {name}, which {source} did not give.");
            }

            if (!visiting.Add(name))
            {
                throw new CallSetupException($"{source}: {name} imports itself through its imports.");
            }

            foreach (var dependency in file.Proto.Dependency)
            {
                Place(dependency, name);
            }

            placed.Add(name);
            ordered.Add(file.Bytes);
        }

        foreach (var name in byName.Keys.ToList())
        {
            Place(name, name);
        }

        return ordered;
    }

    private static string Listed(IEnumerable<string> names)
    {
        var list = names.ToList();
        return list.Count == 0 ? "none" : string.Join(", ", list);
    }
}
