package dev.slipstream.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * Reads a launcher's client secrets file into {@link ClientSecrets}: one client a line,
 * {@code clientId=secret}, the secret in Base64 (RFC 4648, padding optional) and at least
 * {@value ClientSecrets#MIN_SECRET_LENGTH} bytes once decoded; blank lines and lines starting with
 * {@code #} are skipped. An error names the configuration file, its key, the secrets file and the
 * line, never a secret.
 *
 * <pre>{@code
 * # one line per client, each made with:  echo "7=$(head -c 32 /dev/urandom | base64)" >> client-secrets
 * 7=<44 Base64 characters>
 * 8=<44 Base64 characters>
 * }</pre>
 */
final class ClientSecretsFile {
    /** The longest client id an error repeats: a secret in Base64 is at least 22 characters. */
    private static final int LONGEST_SHOWN_ID = 20;

    private ClientSecretsFile() {
    }

    /**
     * @param config the configuration file that names the secrets file
     * @param key the key that names it
     * @param value the key's value, as the configuration file gives it
     * @param file the secrets file that value names
     * @return the secrets
     * @throws IllegalArgumentException if the file cannot be read, a line is not {@code clientId=base64},
     *         an id is negative or given twice, a secret is too short, or no client is given
     */
    static ClientSecrets read(final ConfigFile config, final String key, final String value, final Path file) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw config.invalid(key, value, "a readable file of clientId=<base64 secret> lines (" + e + ")");
        }
        final ClientSecrets.Builder secrets = ClientSecrets.builder();
        int clients = 0;
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final String where = key + " (" + file + ") line " + (i + 1);
            final int equals = line.indexOf('=');
            if (equals <= 0) {
                throw config.fail(where + " is not clientId=secret; expected a client id, '=' and the client's secret"
                        + " in Base64, a line such as 7=<output of head -c 32 /dev/urandom | base64>");
            }
            final String id = line.substring(0, equals).strip();
            final long clientId;
            try {
                clientId = Long.parseLong(id);
            } catch (final NumberFormatException e) {
                // a line that lost its "id=" shows its secret here: only a short id is repeated
                throw config.fail(where + " has client id " + (id.length() <= LONGEST_SHOWN_ID ? "'" + id + "'"
                        : "of " + id.length() + " characters (not shown: it may be a secret)")
                        + "; expected a whole number from 0 up, then '=' and the secret");
            }
            if (clientId < 0) {
                throw config.fail(where + " has client id " + clientId + "; expected a whole number from 0 up");
            }
            final byte[] secret;
            try {
                secret = Base64.getDecoder().decode(line.substring(equals + 1).strip());
            } catch (final IllegalArgumentException e) {
                // the secret is not repeated: error messages end up in logs
                throw config.fail(where + ": the secret of client " + clientId + " is not Base64 (" + e.getMessage()
                        + "); expected Base64 (RFC 4648), such as the output of head -c 32 /dev/urandom | base64");
            }
            try {
                secrets.client(clientId, secret);
            } catch (final IllegalArgumentException e) {
                throw config.fail(where + ": " + e.getMessage());
            }
            clients++;
        }
        if (clients == 0) {
            throw config.invalid(key, value, "a file with at least one clientId=<base64 secret> line; " + file
                    + " has none");
        }
        return secrets.build();
    }
}
