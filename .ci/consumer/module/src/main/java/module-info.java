/** A user's module that needs only slipstream-core. */
module com.example.modular {
    requires dev.slipstream;
}
