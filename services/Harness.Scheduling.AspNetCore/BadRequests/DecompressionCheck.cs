using System.IO.Compression;
using Grpc.Core;
using Grpc.Net.Compression;

namespace Harness.Scheduling.AspNetCore.BadRequests;

/// <summary>
/// A compression provider whose decompression answers data that does not decompress with <c>INTERNAL</c>, as gRPC's
/// table of library statuses says for "Could not decompress, but compression algorithm supported" (grpc/grpc,
/// doc/statuscodes.md). Grpc.AspNetCore decompresses a request with the provider named by its <c>grpc-encoding</c>
/// before the service runs, and answers the InvalidDataException of corrupt gzip or deflate data with <c>UNKNOWN</c>
/// and an Error log line. Compression, and decompression of good data, are the wrapped provider's own.
/// </summary>
internal sealed class DecompressionCheckingProvider(ICompressionProvider inner) : ICompressionProvider
{
    public string EncodingName => inner.EncodingName;

    /// <summary>Each of <paramref name="providers"/>, wrapped once.</summary>
    public static IList<ICompressionProvider> Wrap(IEnumerable<ICompressionProvider> providers) =>
        providers.Select(p => p is DecompressionCheckingProvider ? p : new DecompressionCheckingProvider(p)).ToList();

    public Stream CreateCompressionStream(Stream stream, CompressionLevel? compressionLevel) =>
        inner.CreateCompressionStream(stream, compressionLevel);

    public Stream CreateDecompressionStream(Stream stream) => new CheckedStream(inner.CreateDecompressionStream(stream), inner.EncodingName);

    /// <summary>Reads through the decompressing stream; what it cannot decompress becomes a status.</summary>
    private sealed class CheckedStream(Stream inner, string encoding) : Stream
    {
        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            try
            {
                return inner.Read(buffer);
            }
            catch (InvalidDataException e)
            {
                throw Corrupt(e);
            }
        }

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            try
            {
                return await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
            }
            catch (InvalidDataException e)
            {
                throw Corrupt(e);
            }
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
            }

            base.Dispose(disposing);
        }

        private RpcException Corrupt(InvalidDataException e) =>
            new(new Status(StatusCode.Internal, $"The request message could not be decompressed with {encoding}.", e));
    }
}
